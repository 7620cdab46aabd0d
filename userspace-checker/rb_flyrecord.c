// SPDX-License-Identifier: GPL-2.0
/*
 * Stream the per-CPU ring buffer data of a trace.dat ourselves.
 *
 * libtracecmd (1.3) decompresses a whole CPU's data into memory and walks
 * a list for every page it reads, so reading a large compressed trace is
 * quadratic and its memory grows with the trace.  The flyrecord data is
 * simple: the BUFFER option of the top-level buffer (version 7), or the
 * flyrecord section's table (version 6), gives each CPU's offset and size
 * (rb_tracedat_check.c has found and checked it, the one walk of the
 * file's layout); plain, that is whole pages; compressed, a count of chunks, each
 * [compressed size][size][zstd data] holding whole pages.  One chunk at a
 * time goes through the same sub-buffer path as a raw capture
 * (rb_subbuf_feed), so the verdict cannot depend on the reader.
 *
 * libtracecmd still reads the headers and the event formats (the tep).
 * Where it reads the events too (-R libtracecmd), every sub-buffer is
 * checked here first: kbuffer, under it, trusts the commit word.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zstd.h>

#include "rb_flyrecord.h"
#include "rb_subbuf.h"

#define MAX_CHUNK	(64 << 20)

struct fly {
	const char	*path;
	int		fd;
	struct tep_handle *tep;
	struct rb_input	*in;
	bool		zstd;
	struct rb_subbuf_layout l;
	struct kbuffer	*kbuf;
	const struct rb_tracedat_layout *lay;
	bool		check_only;
	/* this CPU's sub-buffers so far, by a hash of their bytes */
	struct seen {
		uint64_t	*hash;	/* open addressing, 0: free */
		int64_t		*subbuf;
		size_t		size, used;
	} seen;
};

static int bad(struct fly *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(struct fly *f, const char *fmt, ...)
{
	va_list ap;

	/* the caller names the file */
	va_start(ap, fmt);
	vsnprintf(f->in->err, sizeof(f->in->err), fmt, ap);
	va_end(ap);
	return -1;
}

/* All of @len at @off, or -1: a short read is a truncated file. */
static int read_at(struct fly *f, void *buf, size_t len, uint64_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r = pread(f->fd, (char *)buf + got, len - got, off + got);

		if (r < 0)
			return bad(f, "read at offset %" PRIu64 ": %s", off + got, strerror(errno));
		if (r == 0)
			return bad(f, "truncated: %zu bytes missing at offset %" PRIu64,
				   len - got, off + got);
		got += r;
	}
	return 0;
}

static uint64_t num(struct fly *f, const void *p, int size)
{
	return tep_read_number(f->tep, p, size);
}

/* A 64-bit hash of a sub-buffer's bytes, never 0 (a free slot). */
static uint64_t page_hash(const unsigned char *p, int len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (int i = 0; i + 8 <= len; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x100000001b3ULL;
		h ^= h >> 29;
	}
	return h ? h : 1;
}

static int seen_grow(struct seen *s)
{
	struct seen n = { .size = s->size ? 2 * s->size : 1024 };

	n.hash = calloc(n.size, sizeof(*n.hash));
	n.subbuf = calloc(n.size, sizeof(*n.subbuf));
	if (!n.hash || !n.subbuf) {
		free(n.hash);
		free(n.subbuf);
		return -1;
	}
	for (size_t i = 0; i < s->size; i++) {
		size_t j;

		if (!s->hash[i])
			continue;
		for (j = s->hash[i] & (n.size - 1); n.hash[j]; j = (j + 1) & (n.size - 1))
			;
		n.hash[j] = s->hash[i];
		n.subbuf[j] = s->subbuf[i];
	}
	n.used = s->used;
	free(s->hash);
	free(s->subbuf);
	*s = n;
	return 0;
}

/*
 * A reader consumes every page once: the same bytes twice on one CPU
 * (a sub-buffer that is not empty: its stamp and data) is a copy made
 * after the capture.  Equal hashes are taken as equal pages: damage is
 * not crafted, and two different pages meeting needs a 64-bit collision.
 * One multiply per 8 bytes, offline only (never the live reader's path).
 */
static int check_repeat(struct fly *f, int cpu, const unsigned char *page, int64_t subbuf)
{
	struct seen *s = &f->seen;
	uint64_t h, commit = 0;
	size_t j;

	memcpy(&commit, page + 8, f->l.long_size);	/* zero or not: any order */
	if (!commit)
		return 0;
	if (2 * (s->used + 1) > s->size && seen_grow(s) < 0)
		return bad(f, "out of memory");
	h = page_hash(page, f->l.psize);
	for (j = h & (s->size - 1); s->hash[j]; j = (j + 1) & (s->size - 1))
		if (s->hash[j] == h)
			return bad(f, "cpu%d sub-buffer %" PRId64 ": the same bytes as its "
				   "sub-buffer %" PRId64 ": a page repeated", cpu, subbuf,
				   s->subbuf[j]);
	s->hash[j] = h;
	s->subbuf[j] = subbuf;
	s->used++;
	return 0;
}

static void seen_clear(struct seen *s)
{
	if (s->hash)
		memset(s->hash, 0, s->size * sizeof(*s->hash));
	s->used = 0;
}

static int feed_pages(struct fly *f, int cpu, char *data, uint64_t len, int64_t *subbuf)
{
	for (uint64_t o = 0; o + f->l.psize <= len; o += f->l.psize) {
		if (check_repeat(f, cpu, (unsigned char *)data + o, *subbuf) < 0)
			return -1;
		if (f->check_only) {
			if (rb_subbuf_check(f->in, data + o, &f->l, cpu, (*subbuf)++) < 0)
				return -1;
			continue;
		}
		f->in->subbufs++;
		if (rb_subbuf_feed(f->in, f->kbuf, data + o, &f->l, cpu, (*subbuf)++) < 0)
			return -1;
	}
	return 0;
}

/* One CPU's data: chunks of zstd, or plain pages. */
static int read_cpu(struct fly *f, int i)
{
	int cpu = f->lay->cpu[i].id;
	uint64_t off = f->lay->cpu[i].offset, end = off + f->lay->cpu[i].size;
	char *z = NULL, *data = NULL;
	int64_t subbuf = 0;
	unsigned char hdr[8];
	uint32_t count;
	int ret = -1;

	seen_clear(&f->seen);

	if (!f->zstd) {
		/* trace-cmd writes whole sub-buffers: a rest is a damaged table */
		if (f->lay->cpu[i].size % f->l.psize)
			return bad(f, "cpu%d: %" PRIu64 " bytes of data at offset %" PRIu64 " are not "
				   "a whole number of %d-byte sub-buffers", cpu, f->lay->cpu[i].size,
				   off, f->l.psize);
		data = malloc(f->l.psize);
		if (!data)
			return bad(f, "out of memory");
		for (; off + f->l.psize <= end; off += f->l.psize) {
			if (read_at(f, data, f->l.psize, off) < 0) {
				char why[sizeof(f->in->err)];

				snprintf(why, sizeof(why), "%s", f->in->err);
				bad(f, "cpu%d sub-buffer %" PRId64 ": %s", cpu, subbuf, why);
				goto out;
			}
			if (feed_pages(f, cpu, data, f->l.psize, &subbuf) < 0)
				goto out;
		}
		ret = 0;
		goto out;
	}
	end += 4;	/* the size does not count the chunk count */
	if (read_at(f, hdr, 4, off) < 0) {
		if (!f->in->err[0])
			bad(f, "cpu%d: no chunk count at offset %" PRIu64, cpu, off);
		goto out;
	}
	count = num(f, hdr, 4);
	off += 4;
	for (uint32_t c = 0; c < count; c++) {
		uint64_t zsize, size;
		size_t got;

		if (off + 8 > end || read_at(f, hdr, 8, off) < 0) {
			if (!f->in->err[0])
				bad(f, "cpu%d: chunk %u of %u at offset %" PRIu64 " is past the "
				    "CPU's data", cpu, c, count, off);
			goto out;
		}
		zsize = num(f, hdr, 4);
		size = num(f, hdr + 4, 4);
		if (zsize > MAX_CHUNK || size > MAX_CHUNK || size % f->l.psize ||
		    off + 8 + zsize > end) {
			bad(f, "cpu%d: chunk %u at offset %" PRIu64 ": sizes %" PRIu64 "/%" PRIu64
			    " do not fit (page size %d, data ends at %" PRIu64 ")", cpu, c, off,
			    zsize, size, f->l.psize, end);
			goto out;
		}
		free(z);
		free(data);
		z = malloc(zsize ? zsize : 1);
		data = malloc(size ? size : 1);
		if (!z || !data) {
			bad(f, "out of memory");
			goto out;
		}
		if (read_at(f, z, zsize, off + 8) < 0)
			goto out;
		got = ZSTD_decompress(data, size, z, zsize);
		if (ZSTD_isError(got) || got != size) {
			bad(f, "cpu%d: chunk %u at offset %" PRIu64 " does not decompress (%s)", cpu,
			    c, off, ZSTD_isError(got) ? ZSTD_getErrorName(got) : "short");
			goto out;
		}
		if (feed_pages(f, cpu, data, size, &subbuf) < 0)
			goto out;
		off += 8 + zsize;
	}
	ret = 0;
out:
	free(z);
	free(data);
	return ret;
}

int rb_flyrecord_read(const char *path, const struct rb_tracedat_layout *lay,
		      struct tep_handle *tep, struct rb_input *in, bool check_only)
{
	struct fly f = { .path = path, .tep = tep, .in = in, .lay = lay,
			 .check_only = check_only };
	int ret = 0;

	/* no flyrecord table found (a latency trace, compressed options) */
	if (lay->ncpus < 0)
		return 0;
	if (!strcmp(lay->compression, "zstd"))
		f.zstd = true;
	else if (strcmp(lay->compression, "none") && lay->compression[0])
		return 0;	/* another compression: libtracecmd */
	f.l.big_endian = lay->big_endian;
	f.l.long_size = lay->long_size;
	f.l.psize = lay->psize;
	f.l.zero_tail = !in->mapped;

	f.fd = open(path, O_RDONLY);
	if (f.fd < 0)
		return bad(&f, "%s", strerror(errno));
	f.kbuf = kbuffer_alloc(f.l.long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
			       f.l.big_endian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	if (!f.kbuf) {
		ret = bad(&f, "out of memory");
		goto out;
	}
	for (int i = 0; i < lay->ncpus; i++)
		if (read_cpu(&f, i) < 0) {
			ret = -1;
			goto out;
		}
	ret = 1;
out:
	if (f.kbuf)
		kbuffer_free(f.kbuf);
	free(f.seen.hash);
	free(f.seen.subbuf);
	close(f.fd);
	return ret;
}
