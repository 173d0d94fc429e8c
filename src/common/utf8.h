/*
 * Well-formed UTF-8, for the places that pass outside text through to a
 * page or a chart script and must not pass broken bytes along.
 */
#ifndef SSDBENCH_COMMON_UTF8_H
#define SSDBENCH_COMMON_UTF8_H

#include <stddef.h>

/* Length (2..4) of the well-formed multi-byte sequence at p, or 0 when the
   bytes there are not one (a stray continuation byte, an overlong form, a
   surrogate, past U+10FFFF, or cut short by the string's end). */
size_t utf8_seq_len(const unsigned char *p);

#endif
