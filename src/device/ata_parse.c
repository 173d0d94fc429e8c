/*
 * Decoding of ATA IDENTIFY DEVICE and SMART READ DATA.  A word whose
 * validity bits (15:14 = 01b) are wrong is ignored rather than trusted:
 * older drives leave such words zero or all ones.
 */
#include "device/ata.h"

#include <string.h>

#include "device/bytes.h"

/* ACS words 83, 84, 87, 106 and others mark themselves valid with bit 14
   set and bit 15 clear. */
static bool word_valid(uint16_t w)
{
	return (w & 0xc000) == 0x4000;
}

/* IDENTIFY (with its A5h signature) and SMART data both end in a byte
   that makes the 512 bytes sum to zero modulo 256. */
static bool sector_sum_ok(const uint8_t *p)
{
	uint8_t sum = 0;
	for (int i = 0; i < ATA_SECTOR; i++)
		sum = (uint8_t)(sum + p[i]);
	return sum == 0;
}

static double sata_gen_gbps(unsigned gen)
{
	switch (gen) {
	case 1: return 1.5;
	case 2: return 3.0;
	case 3: return 6.0;
	default: return 0.0;
	}
}

static void parse_sector_sizes(const uint16_t *w, struct ata_identify *id)
{
	id->logical_sector_size = ATA_SECTOR;
	id->physical_sector_size = ATA_SECTOR;
	if (!word_valid(w[106]))
		return;
	/* Bit 12: the logical sector is longer than 256 words, its size in
	   words is in 117-118.  Bit 13: several logical sectors per physical
	   one, 2^(bits 3:0) of them. */
	if (w[106] & (1u << 12)) {
		uint32_t words = w[117] | (uint32_t)w[118] << 16;
		if (words >= 256)
			id->logical_sector_size = words * 2;
	}
	id->physical_sector_size = id->logical_sector_size;
	if (w[106] & (1u << 13))
		id->physical_sector_size <<= (w[106] & 0xf);
}

static void parse_security(const uint16_t *w, struct ata_security *s)
{
	memset(s, 0, sizeof *s);
	uint16_t st = w[128];
	s->supported = st & (1u << 0);
	if (!s->supported)
		return;
	s->enabled = st & (1u << 1);
	s->locked = st & (1u << 2);
	s->frozen = st & (1u << 3);
	s->count_expired = st & (1u << 4);
	s->enhanced_erase_supported = st & (1u << 5);
	s->level_maximum = st & (1u << 8);
	/* Words 89/90: bits 7:0 (or 14:0 when bit 15 is set) give the time in
	   units of 2 minutes; 0 means not reported, the maximum "more than". */
	for (int i = 0; i < 2; i++) {
		uint16_t t = w[89 + i];
		unsigned units = (t & 0x8000) ? (t & 0x7fff) : (t & 0xff);
		unsigned *m = i ? &s->enhanced_erase_minutes : &s->erase_minutes;
		*m = units * 2;
	}
}

int ata_parse_identify(const uint8_t *p, size_t len, struct ata_identify *id,
		       struct sb_err *e)
{
	if (len < ATA_SECTOR)
		return sb_errf(e, "IDENTIFY DEVICE: %zu bytes, need %d", len,
			       ATA_SECTOR);
	uint16_t w[256];
	for (int i = 0; i < 256; i++)
		w[i] = get_le16(p + 2 * i);
	/* Word 0 bit 15 set means an ATAPI (packet) device, not a disk. */
	if (w[0] & 0x8000)
		return sb_errf(e, "IDENTIFY DEVICE: an ATAPI device, not a "
			       "disk");
	/* Word 255: signature A5h in bits 7:0, and then all 512 bytes sum
	   to zero modulo 256. */
	if ((w[255] & 0xff) == 0xa5 && !sector_sum_ok(p))
		return sb_errf(e, "IDENTIFY DEVICE: checksum mismatch (the data "
			       "is corrupt)");
	memset(id, 0, sizeof *id);
	id->checksum_present = (w[255] & 0xff) == 0xa5;
	ata_string(id->serial, w, 10, 10);
	ata_string(id->firmware, w, 23, 4);
	ata_string(id->model, w, 27, 20);
	if (!id->model[0] && !id->serial[0])
		return sb_errf(e, "IDENTIFY DEVICE: no model or serial (an "
			       "empty page)");

	id->lba48 = word_valid(w[83]) && (w[83] & (1u << 10));
	uint64_t lba28 = w[60] | (uint64_t)w[61] << 16;
	uint64_t lba48 = w[100] | (uint64_t)w[101] << 16 |
			 (uint64_t)w[102] << 32 | (uint64_t)w[103] << 48;
	id->sectors = (id->lba48 && lba48) ? lba48 : lba28;
	parse_sector_sizes(w, id);

	/* Word 76: 0000h and FFFFh mean "not a SATA device / not reported". */
	if (w[76] != 0 && w[76] != 0xffff) {
		for (unsigned gen = 3; gen >= 1; gen--)
			if (w[76] & (1u << gen)) {
				id->sata_speed_max_gbps = sata_gen_gbps(gen);
				break;
			}
		id->ncq = w[76] & (1u << 8);
		id->sata_speed_current_gbps = sata_gen_gbps((w[77] >> 1) & 7);
	}
	if (id->ncq)
		id->queue_depth = (w[75] & 0x1f) + 1u;

	if (word_valid(w[83])) {
		id->smart_supported = w[82] & (1u << 0);
		id->write_cache_supported = w[82] & (1u << 5);
		id->smart_enabled = w[85] & (1u << 0);
		id->write_cache_enabled = w[85] & (1u << 5);
	}
	id->trim = w[169] & 1;
	id->rotation_rate = (w[217] == 1 || (w[217] >= 0x401 &&
			     w[217] != 0xffff)) ? w[217] : 0;
	parse_security(w, &id->security);
	return 0;
}

int ata_parse_smart(const uint8_t *p, size_t len, struct ata_smart *s,
		    struct sb_err *e)
{
	if (len < ATA_SECTOR)
		return sb_errf(e, "SMART READ DATA: %zu bytes, need %d", len,
			       ATA_SECTOR);
	if (!sector_sum_ok(p))
		return sb_errf(e, "SMART READ DATA: checksum mismatch (the "
			       "data is corrupt)");
	memset(s, 0, sizeof *s);
	/* Bytes 2..361: 30 entries of 12 bytes — id, flags (2), normalized
	   value, worst, raw (6), reserved.  ID 0 marks an unused slot. */
	for (int i = 0; i < ATA_SMART_MAX_ATTRS; i++) {
		const uint8_t *a = p + 2 + 12 * i;
		if (a[0] == 0)
			continue;
		struct ata_smart_attr *out = &s->attr[s->count++];
		out->id = a[0];
		out->flags = get_le16(a + 1);
		out->value = a[3];
		out->worst = a[4];
		out->raw = get_le64(a + 5) & 0xffffffffffffull;
	}
	return 0;
}

const char *ata_smart_attr_name(uint8_t id)
{
	switch (id) {
	case 1: return "raw_read_error_rate";
	case 5: return "reallocated_sectors";
	case 9: return "power_on_hours";
	case 12: return "power_cycles";
	case 170: return "available_reserved_space";
	case 171: return "program_fail_count";
	case 172: return "erase_fail_count";
	case 173: return "wear_leveling_count";
	case 174: return "unexpected_power_loss";
	case 177: return "wear_range_delta";
	case 187: return "reported_uncorrectable";
	case 190: return "airflow_temperature";
	case 192: return "power_off_retract_count";
	case 194: return "temperature";
	case 196: return "reallocation_events";
	case 197: return "pending_sectors";
	case 198: return "offline_uncorrectable";
	case 199: return "crc_errors";
	case 231: return "ssd_life_left";
	case 233: return "media_wearout_indicator";
	case 241: return "total_lbas_written";
	case 242: return "total_lbas_read";
	default: return NULL;
	}
}

const struct ata_smart_attr *ata_smart_find(const struct ata_smart *s,
					    uint8_t id)
{
	for (unsigned i = 0; i < s->count; i++)
		if (s->attr[i].id == id)
			return &s->attr[i];
	return NULL;
}

bool ata_smart_temperature(const struct ata_smart *s, double *celsius)
{
	/* The current temperature is the low byte of the raw value; the
	   other bytes hold vendor min/max. */
	const struct ata_smart_attr *a = ata_smart_find(s, 194);
	if (!a)
		a = ata_smart_find(s, 190);
	if (!a || (a->raw & 0xff) == 0)
		return false;
	*celsius = (double)(a->raw & 0xff);
	return true;
}
