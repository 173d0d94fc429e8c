/* UTF-8 well-formedness after RFC 3629, table 3-7 of the Unicode standard. */
#include "common/utf8.h"

size_t utf8_seq_len(const unsigned char *p)
{
	size_t n;
	unsigned char lo = 0x80, hi = 0xbf;	/* range of the second byte */
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}
