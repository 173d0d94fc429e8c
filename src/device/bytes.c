#include "device/bytes.h"

#include <string.h>

/* Trailing spaces are padding by definition; leading ones are kept out too
   because some ATA drives right-justify their serial numbers. */
static void trim_copy(char *out, const char *in, size_t len)
{
	size_t start = 0, end = len;
	while (start < end && (in[start] == ' ' || in[start] == '\0'))
		start++;
	while (end > start && (in[end - 1] == ' ' || in[end - 1] == '\0'))
		end--;
	size_t n = 0;
	for (size_t i = start; i < end; i++) {
		unsigned char c = (unsigned char)in[i];
		out[n++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	out[n] = '\0';
}

void ascii_field(char *out, const uint8_t *field, size_t len)
{
	trim_copy(out, (const char *)field, len);
}

void ata_string(char *out, const uint16_t *words, unsigned first,
		unsigned nwords)
{
	char raw[2 * 64];
	if (nwords > 64)
		nwords = 64;
	for (unsigned i = 0; i < nwords; i++) {
		raw[2 * i] = (char)(words[first + i] >> 8);
		raw[2 * i + 1] = (char)(words[first + i] & 0xff);
	}
	trim_copy(out, raw, 2 * (size_t)nwords);
}

void str_copy(char *out, size_t len, const char *in)
{
	if (len == 0)
		return;
	size_t n = strnlen(in, len - 1);
	memcpy(out, in, n);
	out[n] = '\0';
}
