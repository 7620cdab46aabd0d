// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: arbitrary bytes as a trace.dat, through the check of
 * its layout (rb_tracedat_check.c: the file header, the chain of options
 * sections, the BUFFER option) and, where that accepts it, the reader
 * that streams version 7 files itself (rb_flyrecord.c: per-CPU zstd
 * chunks or plain pages, then every sub-buffer through rb_subbuf_feed()),
 * as rbcheck runs them.  A
 * trace.dat is untrusted input: a crash, an out-of-bounds access or
 * undefined behaviour is a finding; a clean error return is expected.
 *
 * The bytes are a file in memory (memfd), since the reader takes a path.
 * Seeds: tests/fuzz-flyrecord-corpus/ (tests/make-flyrecord-seeds.py).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_formats.h"
#include "rb_flyrecord.h"

static struct tep_handle *tep;
static struct rb_format fmt;
static char path[64];
static int fd = -1;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rb_input in = { .expect_clock = -1 };
	static struct rb_tracedat_layout lay;
	struct rb_settings set;
	char err[256];

	if (!tep) {
		tep = fuzz_formats(&fmt, 4096);
		fd = memfd_create("trace.dat", 0);
		if (fd < 0) {
			perror("fuzz_flyrecord: memfd_create");
			exit(2);
		}
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	if (rb_tracedat_check(path, &lay, err, sizeof(err)) < 0)
		return 0;
	rb_settings_default(&set);
	in.fmt = fmt;
	in.v = rb_verifier_new(&set);
	rb_flyrecord_read(path, &lay, tep, &in, false);
	rb_verify_finish(in.v);
	rb_verifier_free(in.v);
	return 0;
}
