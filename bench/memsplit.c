// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD=memsplit.so CMD...: how much of a program's heap is its own and how much its
 * libraries'. Each allocation is charged to the first frame of its call stack outside libc,
 * the dynamic loader and this file: the main executable (with libjansson, which only ever
 * builds our JSON) is "ours", any other library (libtracecmd, libtraceevent, libzstd) is
 * "theirs". At exit MEMSPLIT_OUT gets "ours_peak_kb theirs_peak_kb total_peak_kb", peaks of
 * live heap bytes (malloc_usable_size): the anonymous memory the bench reports, less what is not
 * malloc'ed (stacks, libraries' data), which is neither's to save.
 *
 * Not counted: what reclaimscope's rs_heap_setup() and rs_heap_thread() (parsers/rs_heap.c)
 * malloc and free at once to grow an arena and advise it for huge pages. That is address
 * space, never touched; counted, it made "ours" read its size (64 MiB) in every row. Their
 * code is found by name in the executable's symbol table.
 *
 * A benchmark tool (make bench), not part of reclaimscope: it costs a backtrace per
 * allocation. The live pointers sit in an open-addressing table mmap'ed outside the heap.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

#define TABLE_BITS	23			/* 8 M slots, 128 MB of address space */
#define TABLE_SIZE	(1ul << TABLE_BITS)
#define TOMB		((uintptr_t)1)
#define MAX_RANGES	64
#define DEPTH		16

struct slot {
	uintptr_t ptr;				/* 0: empty, TOMB: deleted */
	uintptr_t ours;
};

struct range {
	uintptr_t lo, hi;
	int kind;				/* 0 skip (libc, ld.so, us), 1 ours, 2 theirs */
};

static struct slot *table;
static struct range ranges[MAX_RANGES];
static int nranges;
static struct range reserve[2];			/* rs_heap's functions: not counted */
static int nreserve;
static uintptr_t exe_bias;			/* the executable's load address */
static int ready;				/* 1: table and ranges set up */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int busy;			/* in our own code: do not track */
static long long cur_ours, cur_theirs, peak_ours, peak_theirs, peak_total;

static int phdr_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	const char *name = info->dlpi_name;
	int kind;

	(void)size;
	(void)arg;
	if (!name[0])
		exe_bias = info->dlpi_addr;
	if (!name[0] || strstr(name, "libjansson"))
		kind = 1;
	else if (strstr(name, "/libc.so") || strstr(name, "ld-linux") || strstr(name, "memsplit") ||
		 strstr(name, "linux-vdso"))
		kind = 0;
	else
		kind = 2;
	for (int i = 0; i < info->dlpi_phnum && nranges < MAX_RANGES; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		ranges[nranges].lo = info->dlpi_addr + ph->p_vaddr;
		ranges[nranges].hi = ranges[nranges].lo + ph->p_memsz;
		ranges[nranges++].kind = kind;
	}
	return 0;
}

/* The address ranges of rs_heap's functions, from the executable's .symtab (64-bit ELF). */
static void find_reserve(void)
{
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	struct stat st;
	uint8_t *m;

	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || (size_t)st.st_size < sizeof(*eh)) {
		close(fd);
		return;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return;
	eh = (const Elf64_Ehdr *)m;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(*sh) > (uint64_t)st.st_size)
		goto out;
	sh = (const Elf64_Shdr *)(m + eh->e_shoff);
	for (int i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *str = &sh[sh[i].sh_link < eh->e_shnum ? sh[i].sh_link : 0];

		if (sh[i].sh_type != SHT_SYMTAB ||
		    sh[i].sh_offset + sh[i].sh_size > (uint64_t)st.st_size ||
		    str->sh_offset + str->sh_size > (uint64_t)st.st_size)
			continue;
		for (uint64_t j = 0; j < sh[i].sh_size / sizeof(Elf64_Sym); j++) {
			const Elf64_Sym *sym = (const Elf64_Sym *)(m + sh[i].sh_offset) + j;
			const char *name;

			if (ELF64_ST_TYPE(sym->st_info) != STT_FUNC || sym->st_name >= str->sh_size)
				continue;
			name = (const char *)m + str->sh_offset + sym->st_name;
			if (nreserve < 2 && (!strcmp(name, "rs_heap_setup") ||
					     !strcmp(name, "rs_heap_thread"))) {
				reserve[nreserve].lo = exe_bias + sym->st_value;
				reserve[nreserve++].hi = exe_bias + sym->st_value + sym->st_size;
			}
		}
	}
out:
	munmap(m, (size_t)st.st_size);
}

static void setup(void)
{
	void *bt[2];

	busy = 1;
	table = mmap(NULL, TABLE_SIZE * sizeof(*table), PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (table == MAP_FAILED)
		table = NULL;
	dl_iterate_phdr(phdr_cb, NULL);
	find_reserve();
	backtrace(bt, 2);			/* loads libgcc_s now, not inside a hook */
	busy = 0;
	ready = table != NULL;
}

/* 1 when the allocation is ours, 2 theirs, 3 rs_heap's reservation (not counted) */
static int classify(void)
{
	void *bt[DEPTH];
	int n = backtrace(bt, DEPTH);

	for (int i = 1; i < n; i++) {
		uintptr_t a = (uintptr_t)bt[i];

		for (int r = 0; r < nreserve; r++)
			if (a >= reserve[r].lo && a < reserve[r].hi)
				return 3;
		for (int r = 0; r < nranges; r++) {
			if (a >= ranges[r].lo && a < ranges[r].hi) {
				if (ranges[r].kind)
					return ranges[r].kind;
				goto next;
			}
		}
		return 2;			/* an address we did not map: not ours */
next:;
	}
	return 2;
}

static size_t hash(uintptr_t p)
{
	return (size_t)((p >> 4) * 0x9e3779b97f4a7c15ull >> (64 - TABLE_BITS));
}

static void account(long long size, int ours)
{
	if (ours)
		cur_ours += size;
	else
		cur_theirs += size;
	if (cur_ours > peak_ours)
		peak_ours = cur_ours;
	if (cur_theirs > peak_theirs)
		peak_theirs = cur_theirs;
	if (cur_ours + cur_theirs > peak_total)
		peak_total = cur_ours + cur_theirs;
}

static void track(void *p)
{
	int ours;
	size_t i;

	if (!p || busy || !ready)
		return;
	busy = 1;
	ours = classify();
	if (ours == 3) {
		busy = 0;
		return;
	}
	ours = ours == 1;
	pthread_mutex_lock(&lock);
	for (i = hash((uintptr_t)p);; i = (i + 1) & (TABLE_SIZE - 1)) {
		if (table[i].ptr == 0 || table[i].ptr == TOMB) {
			table[i].ptr = (uintptr_t)p;
			table[i].ours = (uintptr_t)ours;
			account((long long)malloc_usable_size(p), ours);
			break;
		}
	}
	pthread_mutex_unlock(&lock);
	busy = 0;
}

static void untrack(void *p)
{
	size_t i;

	if (!p || !ready)
		return;
	pthread_mutex_lock(&lock);
	for (i = hash((uintptr_t)p); table[i].ptr; i = (i + 1) & (TABLE_SIZE - 1)) {
		if (table[i].ptr == (uintptr_t)p) {
			account(-(long long)malloc_usable_size(p), (int)table[i].ours);
			table[i].ptr = TOMB;
			break;
		}
	}
	pthread_mutex_unlock(&lock);
}

void *malloc(size_t n)
{
	void *p = __libc_malloc(n);

	track(p);
	return p;
}

void *calloc(size_t a, size_t b)
{
	void *p = __libc_calloc(a, b);

	track(p);
	return p;
}

void *realloc(void *old, size_t n)
{
	void *p;

	untrack(old);
	p = __libc_realloc(old, n);
	track(p ? p : (n ? old : NULL));
	return p;
}

void free(void *p)
{
	untrack(p);
	__libc_free(p);
}

void *memalign(size_t align, size_t n)
{
	void *p = __libc_memalign(align, n);

	track(p);
	return p;
}

void *aligned_alloc(size_t align, size_t n)
{
	return memalign(align, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
	void *p = memalign(align, n);

	if (!p)
		return 12;			/* ENOMEM */
	*out = p;
	return 0;
}

void *valloc(size_t n)
{
	return memalign(4096, n);
}

__attribute__((constructor)) static void memsplit_init(void)
{
	setup();
}

__attribute__((destructor)) static void memsplit_report(void)
{
	const char *out = getenv("MEMSPLIT_OUT");
	FILE *f;

	if (!out)
		return;
	busy = 1;
	f = fopen(out, "w");
	if (f) {
		fprintf(f, "%lld %lld %lld\n", peak_ours >> 10, peak_theirs >> 10, peak_total >> 10);
		fclose(f);
	}
}
