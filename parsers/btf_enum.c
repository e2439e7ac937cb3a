// SPDX-License-Identifier: GPL-2.0
/*
 * Raw BTF enum reader. Layout (include/uapi/linux/btf.h): a header, then a type section of
 * variable-length records (struct btf_type + kind-specific data), then a string section of
 * NUL-terminated names. Type records have no length field, so every kind must be known to step
 * over it; an unknown kind ends the walk with an error rather than a guess.
 *
 * The constants are written out here instead of taken from <linux/btf.h> so the parser does not
 * depend on the build machine's headers and states exactly what it accepts.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "btf_enum.h"

#define BTF_MAGIC		0xeB9F
#define BTF_HDR_MIN		24	/* magic..str_len */
#define BTF_TYPE_SIZE		12	/* name_off, info, size/type */
#define BTF_FILE_MAX		(256u << 20)

enum {
	KIND_UNKN, KIND_INT, KIND_PTR, KIND_ARRAY, KIND_STRUCT, KIND_UNION, KIND_ENUM, KIND_FWD,
	KIND_TYPEDEF, KIND_VOLATILE, KIND_CONST, KIND_RESTRICT, KIND_FUNC, KIND_FUNC_PROTO,
	KIND_VAR, KIND_DATASEC, KIND_FLOAT, KIND_DECL_TAG, KIND_TYPE_TAG, KIND_ENUM64,
};

struct btf_view {
	const unsigned char *types;	/* type section */
	size_t types_len;
	const char *strs;		/* string section */
	size_t strs_len;
	int swap;			/* file written by a kernel of the other byte order */
};

static uint32_t rd32(const struct btf_view *v, const unsigned char *p)
{
	uint32_t x;

	memcpy(&x, p, sizeof(x));	/* no alignment is promised for buf */
	return v->swap ? __builtin_bswap32(x) : x;
}

/* The NUL-terminated string at `off`, or NULL when off or the terminator is out of bounds. */
static const char *btf_str(const struct btf_view *v, uint32_t off)
{
	if (off >= v->strs_len || !memchr(v->strs + off, '\0', v->strs_len - off))
		return NULL;
	return v->strs + off;
}

/* Bytes of kind-specific data after a struct btf_type, or -1 for a kind we cannot step over. */
static long kind_extra(unsigned int kind, unsigned int vlen)
{
	switch (kind) {
	case KIND_INT:
	case KIND_VAR:
	case KIND_DECL_TAG:
		return 4;
	case KIND_PTR:
	case KIND_FWD:
	case KIND_TYPEDEF:
	case KIND_VOLATILE:
	case KIND_CONST:
	case KIND_RESTRICT:
	case KIND_FUNC:
	case KIND_FLOAT:
	case KIND_TYPE_TAG:
		return 0;
	case KIND_ARRAY:
		return 12;
	case KIND_STRUCT:
	case KIND_UNION:
	case KIND_DATASEC:
	case KIND_ENUM64:
		return 12L * vlen;
	case KIND_ENUM:
	case KIND_FUNC_PROTO:
		return 8L * vlen;
	default:
		return -1;
	}
}

/* Fill `out` from the items of one enum record (items at p, vlen of them, already in bounds). */
static int collect_items(const struct btf_view *v, const unsigned char *p, unsigned int vlen,
			 int is64, int is_signed, const char *enum_name, struct rs_btf_enum *out,
			 struct rs_error *err)
{
	size_t item_size = is64 ? 12 : 8;
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	int64_t *vals;
	int ret = -1;

	vals = calloc(vlen, sizeof(*vals));
	if (!vals)
		return rs_error_set(err, "out of memory reading enum %s", enum_name);
	for (unsigned int i = 0; i < vlen; i++) {
		const unsigned char *it = p + i * item_size;
		uint32_t lo32 = rd32(v, it + 4);

		if (is64) {
			/* Spans are checked below, so only values that fit int64_t matter. */
			vals[i] = (int64_t)(((uint64_t)rd32(v, it + 8) << 32) | lo32);
		} else {
			vals[i] = is_signed ? (int64_t)(int32_t)lo32 : (int64_t)lo32;
		}
		if (!btf_str(v, rd32(v, it))) {
			rs_error_set(err, "enum %s: item %u has a name outside the string section",
				     enum_name, i);
			goto out;
		}
		if (vals[i] < lo)
			lo = vals[i];
		if (vals[i] > hi)
			hi = vals[i];
	}
	/* Unsigned difference: hi - lo as int64_t could overflow on hostile values. */
	if ((uint64_t)hi - (uint64_t)lo >= RS_BTF_ENUM_MAX_SPAN) {
		rs_error_set(err, "enum %s: values span %lld..%lld, more than %d", enum_name,
			     (long long)lo, (long long)hi, RS_BTF_ENUM_MAX_SPAN);
		goto out;
	}
	out->first = lo;
	out->nr = (size_t)((uint64_t)hi - (uint64_t)lo) + 1;
	out->names = calloc(out->nr, sizeof(*out->names));
	if (!out->names) {
		rs_error_set(err, "out of memory reading enum %s", enum_name);
		goto out;
	}
	for (unsigned int i = 0; i < vlen; i++) {
		size_t slot = (size_t)((uint64_t)vals[i] - (uint64_t)lo);
		char *name = strdup(btf_str(v, rd32(v, p + i * item_size)));

		if (!name) {
			rs_error_set(err, "out of memory reading enum %s", enum_name);
			goto out;
		}
		free(out->names[slot]);		/* last declared wins */
		out->names[slot] = name;
	}
	ret = 0;
out:
	if (ret)
		rs_btf_enum_free(out);
	free(vals);
	return ret;
}

int rs_btf_enum_parse(const void *buf, size_t len, const char *enum_name,
		      struct rs_btf_enum *out, struct rs_error *err)
{
	const unsigned char *b = buf;
	struct btf_view v = { 0 };
	uint32_t hdr_len, type_off, type_len, str_off, str_len;
	uint16_t magic;
	size_t pos;
	uint32_t id = 1;	/* type ids start at 1; 0 is void */

	memset(out, 0, sizeof(*out));
	if (!b || len < BTF_HDR_MIN)
		return rs_error_set(err, "BTF: file too short for a header (%zu bytes)", len);
	memcpy(&magic, b, sizeof(magic));
	if (magic == BTF_MAGIC)
		v.swap = 0;
	else if (magic == __builtin_bswap16(BTF_MAGIC))
		v.swap = 1;
	else
		return rs_error_set(err, "BTF: bad magic 0x%04x", magic);
	if (b[2] != 1)
		return rs_error_set(err, "BTF: unsupported version %u", b[2]);
	hdr_len = rd32(&v, b + 4);
	type_off = rd32(&v, b + 8);
	type_len = rd32(&v, b + 12);
	str_off = rd32(&v, b + 16);
	str_len = rd32(&v, b + 20);
	/* Section offsets are relative to the end of the header; sum in 64 bits. */
	if (hdr_len < BTF_HDR_MIN || hdr_len > len)
		return rs_error_set(err, "BTF: header length %u out of bounds", hdr_len);
	if ((uint64_t)hdr_len + type_off + type_len > len)
		return rs_error_set(err, "BTF: type section out of bounds");
	if ((uint64_t)hdr_len + str_off + str_len > len)
		return rs_error_set(err, "BTF: string section out of bounds");
	v.types = b + hdr_len + type_off;
	v.types_len = type_len;
	v.strs = (const char *)b + hdr_len + str_off;
	v.strs_len = str_len;

	for (pos = 0; pos < v.types_len; id++) {
		const unsigned char *t = v.types + pos;
		uint32_t info, vlen, kind;
		const char *name;
		long extra;

		if (v.types_len - pos < BTF_TYPE_SIZE)
			return rs_error_set(err, "BTF: type %u truncated", id);
		info = rd32(&v, t + 4);
		vlen = info & 0xffff;
		kind = (info >> 24) & 0x1f;
		extra = kind_extra(kind, vlen);
		if (extra < 0)
			return rs_error_set(err, "BTF: type %u has unknown kind %u", id, kind);
		if ((size_t)extra > v.types_len - pos - BTF_TYPE_SIZE)
			return rs_error_set(err, "BTF: type %u runs past the type section", id);
		if ((kind == KIND_ENUM || kind == KIND_ENUM64) && vlen > 0) {
			name = btf_str(&v, rd32(&v, t));
			if (!name)
				return rs_error_set(err, "BTF: type %u has a name outside the "
						    "string section", id);
			if (!strcmp(name, enum_name))
				return collect_items(&v, t + BTF_TYPE_SIZE, vlen,
						     kind == KIND_ENUM64, (info >> 31) & 1,
						     enum_name, out, err);
		}
		pos += BTF_TYPE_SIZE + (size_t)extra;
	}
	return rs_error_set(err, "BTF: no enum %s", enum_name);
}

int rs_btf_enum_read(const char *path, const char *enum_name, struct rs_btf_enum *out,
		     struct rs_error *err)
{
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0;
	int fd, ret = -1;

	memset(out, 0, sizeof(*out));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return rs_error_set(err, "%s: %s", path, strerror(errno));
	/* sysfs reports a size, but read to EOF: the size of a sysfs file is only a hint. */
	for (;;) {
		ssize_t n;

		if (len == cap) {
			unsigned char *nb;

			if (cap >= BTF_FILE_MAX) {
				rs_error_set(err, "%s: larger than %u MB", path,
					     BTF_FILE_MAX >> 20);
				goto out;
			}
			cap = cap ? cap * 2 : (8u << 20);
			nb = realloc(buf, cap);
			if (!nb) {
				rs_error_set(err, "%s: out of memory", path);
				goto out;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rs_error_set(err, "%s: %s", path, strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	ret = rs_btf_enum_parse(buf, len, enum_name, out, err);
	if (ret)
		rs_error_prefix(err, "%s: ", path);
out:
	free(buf);
	close(fd);
	return ret;
}

void rs_btf_enum_free(struct rs_btf_enum *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->nr && e->names; i++)
		free(e->names[i]);
	free(e->names);
	memset(e, 0, sizeof(*e));
}
