// SPDX-License-Identifier: GPL-2.0
/*
 * Variant "tree": the RB_TIME_32 code of the kernel tree we patch,
 * extracted verbatim at build time (see extract-rb-time.py).
 */
#include "rb_time_tree_extracted.c"

static bool tree_read(void *t, u64 *ret)
{
	return rb_time_read(t, ret);
}

static void tree_set(void *t, u64 val)
{
	rb_time_set(t, val);
}

#ifdef RBM_TREE_HAS_CMPXCHG
static bool tree_cmpxchg(void *t, u64 expect, u64 set)
{
	return rb_time_cmpxchg(t, expect, set);
}
#endif

static const char *const tree_words[] = { "cnt", "top", "bottom", "msb" };

const struct rbm_variant rbm_variant_tree = {
	.name		= "tree",
	.what		= "the tree's RB_TIME_32 code (cnt/top/bottom/msb), extracted from ring_buffer.c",
	.nwords		= 4,
	.word_names	= tree_words,
	.value_mask	= ~0ULL,
	.read		= tree_read,
	.set		= tree_set,
#ifdef RBM_TREE_HAS_CMPXCHG
	.cmpxchg	= tree_cmpxchg,
#else
	.no_cmpxchg_why	= "this tree has no rb_time_cmpxchg(): the ring buffer stopped using it",
#endif
};
