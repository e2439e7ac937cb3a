/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal reader of raw BTF (the format of /sys/kernel/btf/vmlinux) that finds one enum by
 * name and returns the names of its items in value order. The recorder uses it to store the
 * numbering of enum vm_event_item, node_stat_item and memcg_stat_item of the running kernel,
 * which the memcg tracepoints' `item` fields refer to and which changes between kernel builds.
 *
 * The file is treated as untrusted input: every offset and length is checked before use.
 */
#ifndef RS_BTF_ENUM_H
#define RS_BTF_ENUM_H

#include <stddef.h>
#include <stdint.h>

#include "rs_error.h"

/* Enums whose values span more than this are refused (the kernel's span a few hundred). */
#define RS_BTF_ENUM_MAX_SPAN	65536

struct rs_btf_enum {
	int64_t first;		/* value of names[0] */
	size_t nr;		/* slots: values first .. first + nr - 1 */
	char **names;		/* as spelled in the kernel source; NULL where no item has that
				   value. When items share a value the last declared wins:
				   NR_LRU_BASE = 0 is followed by NR_INACTIVE_ANON = NR_LRU_BASE. */
};

/*
 * Find `enum enum_name` (an ENUM or ENUM64 with items; forward declarations are skipped) in the
 * raw BTF in buf[0..len). Returns 0 and fills *out, or -1 with err set, including when the enum
 * is not there. The buffer is not kept.
 */
int rs_btf_enum_parse(const void *buf, size_t len, const char *enum_name,
		      struct rs_btf_enum *out, struct rs_error *err);

/* The same, reading the BTF from a file (e.g. /sys/kernel/btf/vmlinux). */
int rs_btf_enum_read(const char *path, const char *enum_name, struct rs_btf_enum *out,
		     struct rs_error *err);

void rs_btf_enum_free(struct rs_btf_enum *e);

#endif
