// SPDX-License-Identifier: GPL-2.0
/*
 * rbstress - nested ring buffer events, for checking their time stamps.
 *
 * Loading the module starts the writers: a kthread per CPU in normal
 * context and a hard-IRQ hrtimer per CPU.  Their events go to whichever
 * tracing instance has events/rbstress enabled.  Unloading stops them and
 * prints per-CPU counts.  See docs/stress-module.md.
 */
#define pr_fmt(fmt) "rbstress: " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include "rbstress.h"

static unsigned int task_window_us = 50;
module_param(task_window_us, uint, 0444);
MODULE_PARM_DESC(task_window_us, "reserve-to-commit window of normal-context events, us (0-10000, default 50)");

static unsigned int irq_window_us = 5;
module_param(irq_window_us, uint, 0444);
MODULE_PARM_DESC(irq_window_us, "reserve-to-commit window of hard-IRQ events, us (0-1000, default 5)");

static unsigned int irq_period_us = 200;
module_param(irq_period_us, uint, 0444);
MODULE_PARM_DESC(irq_period_us, "period of the hard-IRQ writer, us (20-1000000, more than 2 * irq_window_us, default 200)");

static unsigned int task_gap_us;
module_param(task_gap_us, uint, 0444);
MODULE_PARM_DESC(task_gap_us, "sleep between normal-context events, us (0-1000000, default 0: only yield)");

static char *clock = "global";
module_param(clock, charp, 0444);
MODULE_PARM_DESC(clock, "trace clock of the instance under test: local, global, perf, mono, mono_raw, boot or counter (default global)");

struct rbs_settings rbs_settings;

static const char * const rbs_clock_names[RBS_CLOCK_MAX] = {
	[RBS_CLOCK_NONE]	= "counter",
	[RBS_CLOCK_LOCAL]	= "local",
	[RBS_CLOCK_GLOBAL]	= "global",
	[RBS_CLOCK_PERF]	= "perf",
	[RBS_CLOCK_MONO]	= "mono",
	[RBS_CLOCK_MONO_RAW]	= "mono_raw",
	[RBS_CLOCK_BOOT]	= "boot",
};

static int __init rbs_check_range(const char *name, unsigned int val,
				  unsigned int min, unsigned int max)
{
	if (val >= min && val <= max)
		return 0;
	pr_err("%s=%u is out of range (%u-%u)\n", name, val, min, max);
	return -EINVAL;
}

static int __init rbs_parse_params(void)
{
	int ret = 0;
	int i;

	ret |= rbs_check_range("task_window_us", task_window_us, 0, 10000);
	ret |= rbs_check_range("irq_window_us", irq_window_us, 0, 1000);
	ret |= rbs_check_range("irq_period_us", irq_period_us, 20, 1000000);
	ret |= rbs_check_range("task_gap_us", task_gap_us, 0, 1000000);
	if (ret)
		return -EINVAL;
	/* An IRQ writer busy for most of its period would starve the CPU. */
	if (irq_period_us <= 2 * irq_window_us) {
		pr_err("irq_period_us=%u must be more than 2 * irq_window_us=%u\n",
		       irq_period_us, irq_window_us);
		return -EINVAL;
	}

	i = match_string(rbs_clock_names, RBS_CLOCK_MAX, clock);
	if (i < 0) {
		pr_err("clock=%s is not one of local, global, perf, mono, mono_raw, boot, counter\n",
		       clock);
		return -EINVAL;
	}
	rbs_settings.clock = i;

	rbs_settings.window_ns[RBS_CTX_NORMAL] = task_window_us * NSEC_PER_USEC;
	rbs_settings.window_ns[RBS_CTX_IRQ] = irq_window_us * NSEC_PER_USEC;
	rbs_settings.task_gap_us = task_gap_us;
	rbs_settings.irq_period_us = irq_period_us;
	return 0;
}

static int __init rbs_init(void)
{
	int ret;

	ret = rbs_parse_params();
	if (ret)
		return ret;

	ret = rbs_task_start();
	if (ret)
		return ret;
	ret = rbs_irq_start();
	if (ret) {
		rbs_task_stop();
		return ret;
	}
	pr_info("started: clock=%s task_window_us=%u irq_window_us=%u irq_period_us=%u\n",
		rbs_clock_names[rbs_settings.clock], task_window_us,
		irq_window_us, irq_period_us);
	return 0;
}

static void __exit rbs_exit(void)
{
	rbs_irq_stop();
	rbs_task_stop();
	rbs_report();
	pr_info("stopped\n");
}

module_init(rbs_init);
module_exit(rbs_exit);

MODULE_AUTHOR("rbts developers");
MODULE_DESCRIPTION("Nested ring buffer events for time stamp verification");
MODULE_LICENSE("GPL");
