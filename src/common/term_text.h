/*
 * Stored or outside text (a target name, an error, a drive's model string)
 * made safe to print on a terminal.
 */
#ifndef SSDBENCH_COMMON_TERM_TEXT_H
#define SSDBENCH_COMMON_TERM_TEXT_H

#include <stddef.h>

/*
 * `s` with every control byte (C0, DEL, the C1 range U+0080..U+009F), a
 * backslash and any byte that is not well-formed UTF-8 written as an
 * escape (\n, \r, \t, \\, \x1b ...), so stored text cannot move the
 * cursor, retitle the window or fake a line of output.  Written into buf
 * (len > 4), cut short with "..." when it does not fit; returns buf.
 * NULL prints as "".
 */
const char *term_text(const char *s, char *buf, size_t len);

#endif
