// SPDX-License-Identifier: GPL-2.0
/*
 * Stream the per-CPU ring buffer data of a version 7 trace.dat ourselves.
 *
 * libtracecmd (1.3) decompresses a whole CPU's data into memory and walks
 * a list for every page it reads, so reading a large compressed trace is
 * quadratic and its memory grows with the trace.  The flyrecord data is
 * simple: the BUFFER option of the top-level buffer gives each CPU's
 * offset and size; compressed, that is a count of chunks, each
 * [compressed size][size][zstd data] holding whole pages.  One chunk at a
 * time goes through the same sub-buffer path as a raw capture
 * (rb_subbuf_feed), so the verdict cannot depend on the reader.
 *
 * libtracecmd still reads the headers and the event formats (the tep).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "rb_flyrecord.h"
#include "rb_subbuf.h"

#define OPT_DONE	0
#define OPT_BUFFER	3
#define SEC_FL_COMPRESS	1
#define MAX_SECTIONS	64
#define MAX_OPTIONS	(16 << 20)	/* bytes of one options section */
#define MAX_CHUNK	(64 << 20)

struct fly {
	const char	*path;
	int		fd;
	struct tep_handle *tep;
	struct rb_input	*in;
	bool		zstd;
	struct rb_subbuf_layout l;
	struct kbuffer	*kbuf;
	int		ncpus;
	struct { int id; uint64_t offset, size; } cpu[RB_MAX_CPUS];
	uint64_t	missing;	/* an options section past the end of the file */
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

/* The top-level buffer's BUFFER option: offset, name, clock, page size, CPUs. */
static int parse_buffer(struct fly *f, const char *p, uint32_t len, uint64_t at)
{
	const char *end = p + len, *name = p + 8, *clock;
	uint32_t psize, n;

	if (len < 10)
		return bad(f, "BUFFER option at offset %" PRIu64 " is malformed", at);
	clock = memchr(name, 0, end - name);
	if (clock)
		clock++;
	p = clock ? memchr(clock, 0, end - clock) : NULL;
	if (!p || end - (p + 1) < 8)
		return bad(f, "BUFFER option at offset %" PRIu64 " is malformed", at);
	p++;
	if (*name)
		return 0;	/* an instance's buffer: not ours */
	psize = num(f, p, 4);
	n = num(f, p + 4, 4);
	p += 8;
	if (psize != (uint32_t)f->l.psize || n > RB_MAX_CPUS || (uint64_t)(end - p) < n * 20ULL)
		return bad(f, "BUFFER option at offset %" PRIu64 ": page size %u or %u CPUs "
			   "do not fit", at, psize, n);
	for (uint32_t i = 0; i < n; i++, p += 20) {
		f->cpu[i].id = num(f, p, 4);
		f->cpu[i].offset = num(f, p + 4, 8);
		f->cpu[i].size = num(f, p + 12, 8);
		if (f->cpu[i].id < 0 || f->cpu[i].id >= RB_MAX_CPUS)
			return bad(f, "BUFFER option: CPU id %d", f->cpu[i].id);
	}
	f->ncpus = n;
	return 1;
}

/* Follow the chain of options sections to the top-level BUFFER option. */
static int find_buffer(struct fly *f, uint64_t off)
{
	for (int s = 0; s < MAX_SECTIONS && off; s++) {
		unsigned char hdr[16];
		uint64_t size, next = 0;
		char *opts, *p;
		int ret = 0;

		if (read_at(f, hdr, sizeof(hdr), off) < 0) {
			f->missing = off;
			return -1;
		}
		if (num(f, hdr + 2, 2) & SEC_FL_COMPRESS)
			return 0;	/* compressed options: leave it to libtracecmd */
		size = num(f, hdr + 8, 8);
		if (size > MAX_OPTIONS)
			return bad(f, "options section at offset %" PRIu64 " claims %" PRIu64 " bytes",
				   off, size);
		opts = malloc(size ? size : 1);
		if (!opts)
			return bad(f, "out of memory");
		if (read_at(f, opts, size, off + sizeof(hdr)) < 0) {
			free(opts);
			return -1;
		}
		for (p = opts; p + 6 <= opts + size && !ret; ) {
			unsigned int id = num(f, p, 2);
			uint32_t len = num(f, p + 2, 4);

			p += 6;
			if (len > (uint64_t)(opts + size - p)) {
				ret = bad(f, "option %u at offset %" PRIu64 " runs past its section",
					  id, off + sizeof(hdr) + (p - opts));
				break;
			}
			if (id == OPT_BUFFER && !f->ncpus)
				ret = parse_buffer(f, p, len, off + sizeof(hdr) + (p - opts));
			if (ret > 0)
				break;	/* found: the rest of the chain is not ours */
			if (id == OPT_DONE) {
				next = len >= 8 ? num(f, p, 8) : 0;
				break;
			}
			p += len;
		}
		free(opts);
		if (ret < 0)
			return -1;
		if (f->ncpus)
			return 1;
		if (next && next <= off)
			return bad(f, "options chain goes back from %" PRIu64 " to %" PRIu64, off, next);
		off = next;
	}
	return f->ncpus ? 1 : 0;
}

static int feed_pages(struct fly *f, int cpu, char *data, uint64_t len, int64_t *subbuf)
{
	for (uint64_t o = 0; o + f->l.psize <= len; o += f->l.psize) {
		f->in->subbufs++;
		if (rb_subbuf_feed(f->in, f->kbuf, data + o, &f->l, cpu, (*subbuf)++) < 0)
			return -1;
	}
	return 0;
}

/* One CPU's data: chunks of zstd, or plain pages. */
static int read_cpu(struct fly *f, int i)
{
	int cpu = f->cpu[i].id;
	uint64_t off = f->cpu[i].offset, end = off + f->cpu[i].size;
	char *z = NULL, *data = NULL;
	int64_t subbuf = 0;
	unsigned char hdr[8];
	uint32_t count;
	int ret = -1;

	if (!f->zstd) {
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

/*
 * The file header and the top-level BUFFER option: 1 if found, 0 if this
 * is not a file we stream, -1 with the error.  f->fd is open.
 */
static int open_fly(struct fly *f)
{
	char head[128];
	const char *comp, *cver;
	ssize_t n;

	n = pread(f->fd, head, sizeof(head), 0);
	/* magic, "tracing", "7", endian, long size, page size, compression */
	if (n < 28 || memcmp(head, "\027\010\104tracing7", 12))
		return 0;	/* version 6: libtracecmd maps it, fast enough */
	f->l.big_endian = head[12];
	f->l.long_size = head[13];
	f->l.psize = num(f, head + 14, 4);
	comp = head + 18;
	cver = memchr(comp, 0, head + n - comp);
	if (!cver)
		return 0;
	cver++;
	if (!memchr(cver, 0, head + n - cver) || cver + strlen(cver) + 9 > head + n)
		return 0;
	if (!strcmp(comp, "zstd"))
		f->zstd = true;
	else if (strcmp(comp, "none") && *comp)
		return 0;	/* another compression: libtracecmd */
	if ((f->l.long_size != 4 && f->l.long_size != 8) || f->l.psize < 64 || f->l.psize > (1 << 20))
		return bad(f, "header: long size %d or page size %d makes no sense",
			   f->l.long_size, f->l.psize);
	return find_buffer(f, num(f, cver + strlen(cver) + 1, 8));
}

int rb_flyrecord_truncated(const char *path, char *err, size_t errlen)
{
	struct rb_input in = { 0 };
	struct fly f = { .path = path, .in = &in };
	struct stat st;
	int ret = 0;

	f.fd = open(path, O_RDONLY);
	if (f.fd < 0)
		return 0;
	if (fstat(f.fd, &st) < 0)
		goto out;
	if (open_fly(&f) <= 0) {
		/* trace-cmd writes where each CPU's data lies after the data */
		if (f.missing >= (uint64_t)st.st_size) {
			snprintf(err, errlen, "truncated: the file ends at offset %" PRIu64
				 ", before the options section at offset %" PRIu64
				 " that says where each CPU's data lies", (uint64_t)st.st_size,
				 f.missing);
			ret = 1;
		}
		goto out;
	}
	for (int i = 0; i < f.ncpus; i++) {
		uint64_t off = f.cpu[i].offset, size = f.cpu[i].size;

		if (off + size <= (uint64_t)st.st_size)
			continue;
		if (f.zstd || (uint64_t)st.st_size < off)
			snprintf(err, errlen, "cpu%d: truncated: its data is at offsets %" PRIu64
				 "-%" PRIu64 " but the file ends at %" PRIu64, f.cpu[i].id, off,
				 off + size, (uint64_t)st.st_size);
		else
			snprintf(err, errlen, "cpu%d sub-buffer %" PRIu64 ": truncated: the file ends "
				 "at offset %" PRIu64 ", inside the CPU's data (%" PRIu64 "-%" PRIu64 ")",
				 f.cpu[i].id, (st.st_size - off) / f.l.psize, (uint64_t)st.st_size,
				 off, off + size);
		ret = 1;
		break;
	}
out:
	close(f.fd);
	return ret;
}

int rb_flyrecord_read(const char *path, struct tep_handle *tep, struct rb_input *in)
{
	struct fly f = { .path = path, .tep = tep, .in = in };
	int ret;

	f.fd = open(path, O_RDONLY);
	if (f.fd < 0)
		return bad(&f, "%s", strerror(errno));
	ret = open_fly(&f);
	if (ret <= 0)
		goto out;
	f.kbuf = kbuffer_alloc(f.l.long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
			       f.l.big_endian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	if (!f.kbuf) {
		ret = bad(&f, "out of memory");
		goto out;
	}
	for (int i = 0; i < f.ncpus; i++)
		if (read_cpu(&f, i) < 0) {
			ret = -1;
			goto out;
		}
	ret = 1;
out:
	if (f.kbuf)
		kbuffer_free(f.kbuf);
	close(f.fd);
	return ret;
}
