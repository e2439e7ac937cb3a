// SPDX-License-Identifier: GPL-2.0
/*
 * A main() for the libFuzzer harnesses without libFuzzer: runs LLVMFuzzerTestOneInput() once on
 * each file named, so that `make check` builds every harness with the project's compiler and
 * warnings (a harness that no longer compiles against the parsers is caught there, not at the
 * next fuzzing campaign) and runs it over the seeds and regression inputs
 * (tests/e2e/fuzz_harness.sh). Exit 0 when every file was read and run; a harness's finding
 * aborts, as under libFuzzer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the whole file, or NULL with errno set; *size its length */
static uint8_t *read_all(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL, *grown;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 65536;
			grown = realloc(buf, cap);
			if (!grown) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = grown;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		free(buf);
		fclose(f);
		errno = EIO;
		return NULL;
	}
	fclose(f);
	*size = len;
	return buf;
}

int main(int argc, char **argv)
{
	int status = 0;

	for (int i = 1; i < argc; i++) {
		size_t size = 0;
		uint8_t *data = read_all(argv[i], &size);

		if (!data) {
			fprintf(stderr, "%s: %s: %s\n", argv[0], argv[i], strerror(errno));
			status = 1;
			continue;
		}
		LLVMFuzzerTestOneInput(data, size);
		free(data);
	}
	return status;
}
