#include "common/term_text.h"

#include <stdio.h>
#include <string.h>

#include "common/utf8.h"

/* The escape for byte c, or NULL when c prints as itself. */
static const char *escape_of(unsigned char c, char tmp[5])
{
	switch (c) {
	case '\n': return "\\n";
	case '\r': return "\\r";
	case '\t': return "\\t";
	case '\\': return "\\\\";
	}
	if (c < 0x20 || c == 0x7f || c >= 0x80) {
		snprintf(tmp, 5, "\\x%02x", c);
		return tmp;
	}
	return NULL;
}

const char *term_text(const char *s, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t o = 0;
	buf[0] = '\0';
	while (*p) {
		char tmp[5], one[2] = { (char)*p, 0 };
		size_t n = 1;
		const char *out = one;
		size_t seq = *p >= 0x80 ? utf8_seq_len(p) : 0;
		/* A well-formed sequence prints as itself, except U+0080..U+009F
		   (C2 80..C2 9F), which terminals take as control codes. */
		if (seq && !(p[0] == 0xc2 && p[1] < 0xa0)) {
			n = seq;
			out = (const char *)p;
		} else {
			const char *esc = escape_of(*p, tmp);
			if (esc)
				out = esc;
		}
		size_t w = out == (const char *)p ? n : strlen(out);
		if (o + w + 4 > len) {	/* room for "..." and the NUL */
			snprintf(buf + o, len - o, "...");
			return buf;
		}
		memcpy(buf + o, out, w);
		o += w;
		buf[o] = '\0';
		p += n;
	}
	return buf;
}
