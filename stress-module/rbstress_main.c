// SPDX-License-Identifier: GPL-2.0
/*
 * rbstress - nested ring buffer events, for checking their time stamps.
 *
 * Per online CPU, four writers record the rbstress event, each holding its
 * reserve-to-commit window open so that the next context up lands inside:
 *
 *	normal (kthread) > softirq (soft hrtimer) > irq (hard hrtimer) > NMI
 *
 * The events go to whichever tracing instance has events/rbstress enabled.
 * Writers follow CPU hotplug.  Control and counters are in debugfs
 * (rbstress/).  See docs/stress-module.md.
 */
#define pr_fmt(fmt) "rbstress: " fmt

#include <linux/cpuhotplug.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "rbstress.h"

static unsigned int task_window_us = 50;
module_param(task_window_us, uint, 0444);
MODULE_PARM_DESC(task_window_us, "window of normal-context events, us (0-10000, default 50)");

static unsigned int task_gap_us;
module_param(task_gap_us, uint, 0444);
MODULE_PARM_DESC(task_gap_us, "sleep between normal-context events, us (0-1000000, default 0: only yield)");

static unsigned int softirq_window_us = 20;
module_param(softirq_window_us, uint, 0444);
MODULE_PARM_DESC(softirq_window_us, "window of softirq events, us (0-1000, default 20)");

static unsigned int softirq_period_us = 500;
module_param(softirq_period_us, uint, 0444);
MODULE_PARM_DESC(softirq_period_us, "period of the softirq writer, us (0: off, or 20-1000000 and more than 2 * its window; default 500)");

static unsigned int irq_window_us = 10;
module_param(irq_window_us, uint, 0444);
MODULE_PARM_DESC(irq_window_us, "window of hard-IRQ events, us (0-1000, default 10)");

static unsigned int irq_period_us = 200;
module_param(irq_period_us, uint, 0444);
MODULE_PARM_DESC(irq_period_us, "period of the hard-IRQ writer, us (0: off, or 20-1000000 and more than 2 * its window; default 200)");

static unsigned int nmi_window_us = 1;
module_param(nmi_window_us, uint, 0444);
MODULE_PARM_DESC(nmi_window_us, "window of NMI events, us (0-100, default 1)");

static unsigned int nmi_period_us = 200;
module_param(nmi_period_us, uint, 0444);
MODULE_PARM_DESC(nmi_period_us, "period of NMIs per CPU, us (0: off, or 20-1000000 and more than 2 * its window; default 200)");

static unsigned int quiet_every_ms = 5000;
module_param(quiet_every_ms, uint, 0444);
MODULE_PARM_DESC(quiet_every_ms, "interval of each CPU's quiet periods, ms (0: none, or 1000-600000; default 5000)");

static unsigned int quiet_ms = 200;
module_param(quiet_ms, uint, 0444);
MODULE_PARM_DESC(quiet_ms, "length of a quiet period, ms (135-10000 and less than half the interval; default 200)");

static char *nmi = "auto";
module_param(nmi, charp, 0444);
MODULE_PARM_DESC(nmi, "NMI source: auto (perf if a PMU exists, else IPI), perf, ipi or none (default auto)");

static char *clock = "global";
module_param(clock, charp, 0444);
MODULE_PARM_DESC(clock, "trace clock of the instance under test: local, global, perf, mono, mono_raw, boot, uptime or counter (default global)");

static bool autostart = true;
module_param(autostart, bool, 0444);
MODULE_PARM_DESC(autostart, "start the writers at load (default Y); else write 'start' to rbstress/control in debugfs");

struct rbs_settings rbs_settings;

static const char * const rbs_nmi_wants[] = { "auto", "perf", "ipi", "none" };

static int __init rbs_check_range(const char *name, unsigned int val,
				  unsigned int min, unsigned int max)
{
	if (val >= min && val <= max)
		return 0;
	pr_err("%s=%u is out of range (%u-%u)\n", name, val, min, max);
	return -EINVAL;
}

/* A writer's period: 0 (off) or in range and long enough for its window. */
static int __init rbs_check_period(const char *name, unsigned int period,
				   unsigned int window)
{
	if (!period)
		return 0;
	if (rbs_check_range(name, period, 20, 1000000))
		return -EINVAL;
	/* A writer busy for most of its period would starve its CPU. */
	if (period <= 2 * window) {
		pr_err("%s=%u must be more than 2 * its window (%u us)\n",
		       name, period, window);
		return -EINVAL;
	}
	return 0;
}

static int __init rbs_parse_params(void)
{
	int ret = 0;
	int i;

	ret |= rbs_check_range("task_window_us", task_window_us, 0, 10000);
	ret |= rbs_check_range("task_gap_us", task_gap_us, 0, 1000000);
	ret |= rbs_check_range("softirq_window_us", softirq_window_us, 0, 1000);
	ret |= rbs_check_range("irq_window_us", irq_window_us, 0, 1000);
	ret |= rbs_check_range("nmi_window_us", nmi_window_us, 0, 100);
	/* Longer than 2^27 ns: the next event's delta needs a time extend. */
	ret |= rbs_check_range("quiet_ms", quiet_ms, 135, 10000);
	if (quiet_every_ms)
		ret |= rbs_check_range("quiet_every_ms", quiet_every_ms, 1000, 600000);
	if (ret)
		return -EINVAL;
	if (quiet_every_ms && quiet_ms * 2 >= quiet_every_ms) {
		pr_err("quiet_ms=%u must be less than half of quiet_every_ms (%u)\n",
		       quiet_ms, quiet_every_ms);
		return -EINVAL;
	}
	ret |= rbs_check_period("softirq_period_us", softirq_period_us, softirq_window_us);
	ret |= rbs_check_period("irq_period_us", irq_period_us, irq_window_us);
	ret |= rbs_check_period("nmi_period_us", nmi_period_us, nmi_window_us);
	if (ret)
		return -EINVAL;

	i = rbs_clock_parse(clock);
	if (i < 0) {
		pr_err("clock=%s is not a trace clock this module knows (RBS_CLOCK_SYMBOLS in rbstress.h; the event's format lists them)\n",
		       clock);
		return -EINVAL;
	}
	rbs_settings.clock = i;
	if (match_string(rbs_nmi_wants, ARRAY_SIZE(rbs_nmi_wants), nmi) < 0) {
		pr_err("nmi=%s is not one of auto, perf, ipi, none\n", nmi);
		return -EINVAL;
	}

	rbs_settings.window_ns[RBS_CTX_NORMAL] = task_window_us * NSEC_PER_USEC;
	rbs_settings.window_ns[RBS_CTX_SOFTIRQ] = softirq_window_us * NSEC_PER_USEC;
	rbs_settings.window_ns[RBS_CTX_IRQ] = irq_window_us * NSEC_PER_USEC;
	rbs_settings.window_ns[RBS_CTX_NMI] = nmi_window_us * NSEC_PER_USEC;
	rbs_settings.task_gap_us = task_gap_us;
	rbs_settings.softirq_period_us = softirq_period_us;
	rbs_settings.irq_period_us = irq_period_us;
	rbs_settings.nmi_period_us = nmi_period_us;
	rbs_settings.quiet_every_ms = quiet_every_ms;
	rbs_settings.quiet_ms = quiet_ms;
	rbs_settings.load_id = get_random_u32() | 1;
	return 0;
}

static DEFINE_MUTEX(rbs_lock);
static int rbs_hp_state = -1;

/* Hotplug: runs on @cpu as it comes online (and for each CPU at start). */
static int rbs_cpu_online(unsigned int cpu)
{
	int ret;

	if (WARN_ON_ONCE(cpu != smp_processor_id()))
		return -EINVAL;
	ret = rbs_nmi_start_cpu(cpu);
	if (ret)
		return ret;
	rbs_timers_start_this_cpu();
	ret = rbs_task_start_cpu(cpu);
	if (ret) {
		rbs_timers_stop_cpu(cpu);
		rbs_nmi_stop_cpu(cpu);
	}
	return ret;
}

/* Hotplug: runs on @cpu before it goes offline (and for each CPU at stop). */
static int rbs_cpu_offline(unsigned int cpu)
{
	rbs_task_stop_cpu(cpu);
	rbs_timers_stop_cpu(cpu);
	rbs_nmi_stop_cpu(cpu);
	return 0;
}

int rbs_start(void)
{
	int ret = 0;

	mutex_lock(&rbs_lock);
	if (rbs_hp_state < 0) {
		ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "trace/rbstress:online",
					rbs_cpu_online, rbs_cpu_offline);
		if (ret >= 0) {
			rbs_hp_state = ret;
			ret = 0;
		} else {
			pr_err("cannot start the writers (%d)\n", ret);
		}
	}
	mutex_unlock(&rbs_lock);
	return ret;
}

void rbs_stop(void)
{
	mutex_lock(&rbs_lock);
	if (rbs_hp_state >= 0) {
		cpuhp_remove_state(rbs_hp_state);
		rbs_hp_state = -1;
	}
	mutex_unlock(&rbs_lock);
}

bool rbs_running(void)
{
	return READ_ONCE(rbs_hp_state) >= 0;
}

static int __init rbs_init(void)
{
	int ret;

	ret = rbs_parse_params();
	if (ret)
		return ret;
	ret = rbs_nmi_init(nmi);
	if (ret)
		return ret;

	rbs_debugfs_init();
	if (autostart) {
		ret = rbs_start();
		if (ret) {
			rbs_debugfs_exit();
			rbs_nmi_exit();
			return ret;
		}
	}
	pr_info("loaded: clock=%s nmi_source=%s%s\n", rbs_clock_name(rbs_settings.clock),
		rbs_nmi_source_names[rbs_settings.nmi_source],
		autostart ? ", writers running" : "");
	return 0;
}

static void __exit rbs_exit(void)
{
	/* Writers and NMI senders first, then the NMI handler they feed. */
	rbs_stop();
	rbs_nmi_exit();
	rbs_debugfs_exit();
	pr_info("unloaded\n");
}

module_init(rbs_init);
module_exit(rbs_exit);

MODULE_AUTHOR("rbts developers");
MODULE_DESCRIPTION("Nested ring buffer events for time stamp verification");
MODULE_LICENSE("GPL");
