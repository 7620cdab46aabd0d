// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: arbitrary bytes as ring buffer sub-buffers, through the
 * offline reader's own path (rb_subbuf_feed(): header checks, kbuffer,
 * decoding by the real event format, every rule).  Built with ASan and
 * UBSan: a crash, an out-of-bounds access or undefined behaviour is a
 * finding; a clean error return is the expected outcome for garbage.
 *
 * The formats are those of the x86_64 guest (tests/data/), the seeds real
 * sub-buffers (tests/fuzz-corpus/).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kbuffer.h>

#include "fuzz_formats.h"
#include "rb_subbuf.h"

#define PSIZE 4096

static struct tep_handle *tep;
static struct kbuffer *kbuf;
static struct rb_format fmt;

static void setup(void)
{
	tep = fuzz_formats(&fmt, PSIZE);
	kbuf = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct rb_subbuf_layout layout = { .psize = PSIZE, .long_size = 8 };
	static char page[PSIZE];
	struct rb_settings set;
	struct rb_input in = { .expect_clock = -1 };

	if (!tep)
		setup();
	rb_settings_default(&set);
	in.fmt = fmt;
	in.v = rb_verifier_new(&set);
	/* Up to two sub-buffers, so state carried across them is exercised. */
	for (int i = 0; i < 2 && size > (size_t)i * PSIZE; i++) {
		size_t n = size - i * PSIZE < PSIZE ? size - i * PSIZE : PSIZE;

		memset(page, 0, sizeof(page));
		memcpy(page, data + i * PSIZE, n);
		if (rb_subbuf_feed(&in, kbuf, page, &layout, 0, i) < 0)
			break;
	}
	rb_verify_finish(in.v);
	rb_verifier_free(in.v);
	return 0;
}
