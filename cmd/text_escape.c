// SPDX-License-Identifier: GPL-2.0
/* Terminal-safe strings from the trace (include/text_escape.h). */
#include <stdbool.h>
#include <string.h>

#include "text_escape.h"

/* Bytes of the control character at s (1 for C0/DEL, 2 for UTF-8 C1), or 0 for none. */
static size_t control_len(const unsigned char *s)
{
	if (*s < 0x20 || *s == 0x7f)
		return 1;
	if (*s == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f)
		return 2;
	return 0;
}

static int escaped(char *out, const unsigned char *s, size_t clen)
{
	static const char hex[] = "0123456789abcdef";

	if (clen == 2) {
		memcpy(out, "\\u00", 4);
		out[4] = hex[s[1] >> 4];
		out[5] = hex[s[1] & 15];
		return 6;
	}
	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[*s >> 4];
	out[3] = hex[*s & 15];
	return 4;
}

char *rs_escape(char *buf, size_t n, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "(null)");
	size_t at = 0;

	if (!n)
		return buf;
	while (*p) {
		size_t clen = control_len(p), step;
		char tmp[8];
		int w;

		if (clen) {
			w = escaped(tmp, p, clen);
			step = clen;
		} else {
			/* a whole UTF-8 sequence, so a cut never splits one */
			step = 1;
			while (p[step] && (p[step] & 0xc0) == 0x80 && step < 4)
				step++;
			w = (int)step;
			memcpy(tmp, p, step);
		}
		if (at + (size_t)w >= n)
			break;
		memcpy(buf + at, tmp, (size_t)w);
		at += (size_t)w;
		p += step;
	}
	buf[at] = '\0';
	return buf;
}

const char *rs_esc(const char *s)
{
	static __thread char bufs[RS_ESC_SLOTS][RS_ESC_MAX];
	static __thread unsigned int next;

	return rs_escape(bufs[next++ % RS_ESC_SLOTS], RS_ESC_MAX, s);
}

void rs_escape_write(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len, *run = p;

	while (p < end) {
		size_t clen = *p == '\n' ? 0 : control_len(p);
		char tmp[8];

		if (clen == 2 && p + 1 >= end)
			clen = 0;
		if (!clen) {
			p++;
			continue;
		}
		fwrite(run, 1, (size_t)(p - run), f);
		fwrite(tmp, 1, (size_t)escaped(tmp, p, clen), f);
		p += clen;
		run = p;
	}
	fwrite(run, 1, (size_t)(p - run), f);
}

const char *rs_text_tail(const char *s, char *buf, size_t w)
{
	size_t n = strlen(s);

	if (n <= w)
		return s;
	snprintf(buf, w + 1, "...%s", s + n - (w - 3));
	return buf;
}
