/*
 * Reading fields out of the binary pages devices return.  NVMe pages are
 * little endian byte arrays; ATA IDENTIFY is an array of little-endian
 * 16-bit words whose strings store two characters per word, first one in the
 * high byte.  Every parser reads through these so a page built in a test on
 * any host decodes the same way.
 */
#ifndef SSDBENCH_DEVICE_BYTES_H
#define SSDBENCH_DEVICE_BYTES_H

#include <stddef.h>
#include <stdint.h>

static inline uint16_t get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)get_le16(p) | ((uint32_t)get_le16(p + 2) << 16);
}

static inline uint64_t get_le64(const uint8_t *p)
{
	return (uint64_t)get_le32(p) | ((uint64_t)get_le32(p + 4) << 32);
}

/*
 * The 128-bit counters of the NVMe logs: no drive comes near 2^64 units, so
 * a larger value is reported as UINT64_MAX rather than silently wrapped.
 */
static inline uint64_t get_le128_sat(const uint8_t *p)
{
	return get_le64(p + 8) ? UINT64_MAX : get_le64(p);
}

/*
 * Copy a space-padded ASCII field (NVMe serial, model, firmware) into a C
 * string without the padding; non-printable bytes become '?'.
 * `out` must hold `len` + 1 bytes.
 */
void ascii_field(char *out, const uint8_t *field, size_t len);

/*
 * Copy an ATA IDENTIFY string of `nwords` words starting at word `first`,
 * undoing the byte swap within each word.  `out` holds 2*nwords + 1 bytes.
 */
void ata_string(char *out, const uint16_t *words, unsigned first,
		unsigned nwords);

/* Copy a C string into a fixed buffer, truncating; always terminated. */
void str_copy(char *out, size_t len, const char *in);

#endif
