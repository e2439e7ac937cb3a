// SPDX-License-Identifier: GPL-2.0
/*
 * Linked into the sanitizer builds only (make SANITIZE=..., the second round of make check).
 * At exit LeakSanitizer scans the writable segments of every loaded module for pointers, those
 * of libasan and libubsan included: 11.7 MB of .bss (each runtime has a 4.4 MB stack-depot
 * table), almost all of it never touched. Read a page at a time, that scan took 2,700 faults,
 * each a trap on this VM: 60 ms of every sanitized process, its largest fixed cost after
 * start-up. Just before the scan (an exit handler registered after LeakSanitizer's runs before
 * it), those segments are asked for at once (MADV_POPULATE_READ, Linux 5.14; an older kernel
 * says EINVAL and nothing changes): the kernel maps the zero page into all of them in one call.
 * The scan then reads the same memory; what it finds is unchanged.
 */
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ	22
#endif

static int populate(struct dl_phdr_info *info, size_t size, void *data)
{
	if (!strstr(info->dlpi_name, "/libasan.so") && !strstr(info->dlpi_name, "/libubsan.so"))
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t b, e;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W))
			continue;
		b = (info->dlpi_addr + ph->p_vaddr) & ~(uintptr_t)4095;
		e = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz + 4095) & ~(uintptr_t)4095;
		madvise((void *)b, e - b, MADV_POPULATE_READ);
	}
	return 0;
}

static void prefault(void)
{
	dl_iterate_phdr(populate, NULL);
}

__attribute__((constructor)) static void prefault_at_exit(void)
{
	atexit(prefault);
}
