// SPDX-License-Identifier: GPL-2.0
/*
 * Variant "article": the three-field rb_time_t (cnt, top, bottom) as the
 * article in ../shared/seeds/000-article.md describes and lists it, with
 * its missing semicolon and the typecasts it leaves out put back.  The
 * values stored fit 32 bits, as on the machines the article was written for.
 *
 * The seeded faulty variants at the end are this code with one deliberate
 * mistake each; the model checker must catch every one of them.
 */
#include "rbm_shim.h"

struct article_time {
	local_t cnt;
	local_t top;
	local_t bottom;
};

#define A_SHIFT		30
#define A_MASK		((1UL << A_SHIFT) - 1)
#define A_CNT(cnt)	(((cnt) & 3) << A_SHIFT)
#define A_BITS(v)	((v) & (3UL << A_SHIFT))

static void article_set(void *p, u64 val)
{
	struct article_time *t = p;
	unsigned long cnt, top, bottom, set;

	top = val >> A_SHIFT;
	bottom = val & A_MASK;

	do {
		cnt = local_inc_return(&t->cnt);
		set = top | A_CNT(cnt);
		local_set(&t->top, set);
		set = bottom | A_CNT(cnt);
		local_set(&t->bottom, set);
	} while (cnt != local_read(&t->cnt));
}

/* The article's read loop: both halves from one uninterrupted pass. */
static void article_read_halves(struct article_time *t, unsigned long *top,
				unsigned long *bottom)
{
	unsigned long cnt;

	do {
		cnt = local_read(&t->cnt);
		*top = local_read(&t->top);
		*bottom = local_read(&t->bottom);
	} while (cnt != local_read(&t->cnt));
}

static bool article_read(void *p, u64 *ret)
{
	unsigned long top, bottom;

	article_read_halves(p, &top, &bottom);
	if (A_BITS(top) != A_BITS(bottom))
		return false;

	*ret = (u64)(top & A_MASK) << A_SHIFT | (bottom & A_MASK);
	return true;
}

static bool article_cmpxchg(void *p, u64 expect, u64 set)
{
	struct article_time *t = p;
	unsigned long cnt, top, bottom;
	unsigned long cnt2, top2, bottom2;
	u64 val;

	if (!article_read(t, &val))
		return false;

	if (val != expect)
		return false;

	cnt = local_read(&t->cnt);
	cnt2 = cnt + 1;

	top = A_CNT(cnt) | (val >> A_SHIFT);
	bottom = A_CNT(cnt) | (val & A_MASK);

	top2 = A_CNT(cnt2) | (set >> A_SHIFT);
	bottom2 = A_CNT(cnt2) | (set & A_MASK);

	if (local_cmpxchg(&t->cnt, cnt, cnt2) != cnt)
		return false;
	if (local_cmpxchg(&t->top, top, top2) != top)
		return false;
	if (local_cmpxchg(&t->bottom, bottom, bottom2) != bottom)
		return false;
	return true;
}

static const char *const article_words[] = { "cnt", "top", "bottom" };

/* The article's layout, with the operations given. */
#define ARTICLE_VARIANT(_name, _what, _read, _set, _cmpxchg)		\
	{								\
		.name		= _name,				\
		.what		= _what,				\
		.nwords		= 3,					\
		.word_names	= article_words,			\
		.value_mask	= (1ULL << 60) - 1,			\
		.read		= _read,				\
		.set		= _set,					\
		.cmpxchg	= _cmpxchg,				\
	}

const struct rbm_variant rbm_variant_article =
	ARTICLE_VARIANT("article",
			"the article's three-field rb_time_t (cnt/top/bottom), from its listings",
			article_read, article_set, article_cmpxchg);

/* Seeded fault: the read does not compare the counter bits of the halves. */
static bool read_nocnt(void *p, u64 *ret)
{
	unsigned long top, bottom;

	article_read_halves(p, &top, &bottom);
	*ret = (u64)(top & A_MASK) << A_SHIFT | (bottom & A_MASK);
	return true;
}

const struct rbm_variant rbm_variant_read_nocnt =
	ARTICLE_VARIANT("fault-read-nocnt",
			"seeded fault: article read without the counter-bits comparison",
			read_nocnt, article_set, article_cmpxchg);

/* Seeded fault: the set writes once and does not retry when interrupted. */
static void set_noretry(void *p, u64 val)
{
	struct article_time *t = p;
	unsigned long cnt;

	cnt = local_inc_return(&t->cnt);
	local_set(&t->top, (val >> A_SHIFT) | A_CNT(cnt));
	local_set(&t->bottom, (val & A_MASK) | A_CNT(cnt));
}

const struct rbm_variant rbm_variant_set_noretry =
	ARTICLE_VARIANT("fault-set-noretry",
			"seeded fault: article set without its retry loop",
			article_read, set_noretry, article_cmpxchg);

/* Seeded fault: the cmpxchg leaves cnt alone but still tags with cnt + 1. */
static bool cmpxchg_nocnt(void *p, u64 expect, u64 set)
{
	struct article_time *t = p;
	unsigned long cnt, top, bottom, top2, bottom2;
	u64 val;

	if (!article_read(t, &val) || val != expect)
		return false;

	cnt = local_read(&t->cnt);
	top = A_CNT(cnt) | (val >> A_SHIFT);
	bottom = A_CNT(cnt) | (val & A_MASK);
	top2 = A_CNT(cnt + 1) | (set >> A_SHIFT);
	bottom2 = A_CNT(cnt + 1) | (set & A_MASK);

	if (local_cmpxchg(&t->top, top, top2) != top)
		return false;
	if (local_cmpxchg(&t->bottom, bottom, bottom2) != bottom)
		return false;
	return true;
}

const struct rbm_variant rbm_variant_cmpxchg_nocnt =
	ARTICLE_VARIANT("fault-cmpxchg-nocnt",
			"seeded fault: article cmpxchg that skips cnt",
			article_read, article_set, cmpxchg_nocnt);
