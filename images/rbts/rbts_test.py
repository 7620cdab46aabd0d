# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the host program, in-process, as the kernel's
tools/testing/kunit/kunit_tool_test.py tests kunit.py: no guest, no
kernel build, no subprocess of ours; fixtures are saved results.

    PYTHONPATH=images python3 -m unittest rbts.rbts_test
    ./run.sh test -t host/python-unit     (the same, as KTAP)
"""
import contextlib
import io
import json
import os
import tempfile
import unittest

from rbts import kspec, matrix, plan as planmod, results, settings, verdict


def make_plan(*argv):
    return planmod.Plan('run').parse(list(argv))


class PlanTest(unittest.TestCase):
    """A Plan from options: what a run will do, refused before anything
    is spent."""

    def test_default_plan_is_the_first_line_with_our_series(self):
        p = make_plan().to_json()
        self.assertEqual(p['kspec'], '%s:ours:default:x86_64' % kspec.default_line())
        self.assertEqual(p['job'], 'stress')

    def test_debug_is_fatal_on_a_warning_unless_soak_keeps_going(self):
        p = make_plan('--debug')
        self.assertIn('panic_on_warn=1', p.append())
        p.warn_is_fatal = False
        self.assertNotIn('panic_on_warn', p.append())
        self.assertIn('acpi=noirq', p.append())

    def test_single_thread_is_a_tcg_mode(self):
        self.assertIn('--single-thread', make_plan('--single-thread').boot_extra)
        with self.assertRaisesRegex(planmod.PlanError, 'TCG mode: not with --accel kvm'):
            make_plan('--single-thread', '--accel', 'kvm')

    def test_bad_options_are_one_line(self):
        for argv, said in ((['--cpus', '9'], '--cpus must be 1 to 8'),
                           (['--job', 'nap'], '--job must be stress, .*textpoke'),
                           (['--kernel', '5.4'], "no line '5.4'"),
                           (['--duration', '0'], '--duration must be')):
            with self.subTest(argv=argv):
                with self.assertRaisesRegex(planmod.PlanError, said):
                    make_plan(*argv)

    def test_timeout_covers_every_fault_scenario(self):
        p = make_plan('--faults', 'resize,clock', '--duration', '20')
        self.assertEqual(p.timeout(), 20 * 2 + 180)


class SettingsTest(unittest.TestCase):
    """The guest's settings: one table, checked here."""

    def test_textpoke_is_a_job(self):
        self.assertIn('textpoke', planmod.guest_values('job'))

    def test_a_bad_value_is_refused(self):
        rows = settings.load()
        self.assertTrue(settings.check('duration', '0', rows['duration'][0]))
        self.assertFalse(settings.check('duration', '60', rows['duration'][0]))


class ResultsTest(unittest.TestCase):
    """The results layout and the exit statuses have one owner."""

    def test_every_exit_names_its_verdict(self):
        self.assertEqual([results.verdict_of_exit(n) for n in (0, 1, 2, 3, 4, 7)],
                         ['PASS', 'FAIL', 'ERROR', 'HUNG', 'INCOMPLETE', 'ERROR'])

    def test_an_undeclared_file_is_a_bug(self):
        self.assertTrue(results.path('/x', 'verdict.json').endswith('/x/verdict.json'))
        with self.assertRaises(KeyError):
            results.path('/x', 'no-such-file.txt')


class VerdictTest(unittest.TestCase):
    """The verdict of saved results, judged in-process."""

    def judge(self, files, *argv):
        with tempfile.TemporaryDirectory() as d:
            for name, text in files.items():
                with open(os.path.join(d, name), 'w') as f:
                    f.write(text)
            with contextlib.redirect_stdout(io.StringIO()), \
                    contextlib.redirect_stderr(io.StringIO()):
                rc = verdict.main([d] + list(argv))
            with open(os.path.join(d, 'verdict.json')) as f:
                return rc, json.load(f)

    def test_a_guest_that_wrote_nothing_died(self):
        rc, v = self.judge({'console.log': 'boot\n'})
        self.assertEqual((rc, v['verdict']), (2, 'ERROR'))

    def test_a_hung_guest_is_hung(self):
        rc, v = self.judge({'console.log': 'boot\n'}, '--hung', '60')
        self.assertEqual((rc, v['verdict']), (3, 'HUNG'))

    def test_a_kernel_warning_fails_a_passing_job(self):
        rc, v = self.judge({'job-exit': '0\n', 'dmesg.txt':
                            '[ 1.0] WARNING: CPU: 0 PID: 1 at kernel/trace/ring_buffer.c:1 x+0x1/0x2\n'})
        self.assertEqual((rc, v['verdict']), (1, 'FAIL'))
        self.assertEqual([c['verdict'] for c in v['checks'] if c['name'] == 'kernel-log'], ['FAIL'])

    def test_a_missing_directory_is_usage(self):
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(verdict.main(['/nonexistent/run']), 2)


class MatrixTest(unittest.TestCase):
    """A matrix file's cells, before any run."""

    def cells_of(self, text):
        with tempfile.NamedTemporaryFile('w', suffix='.matrix') as f:
            f.write(text)
            f.flush()
            return matrix.cells(matrix.parse(f.name))

    def test_cells_are_every_combination_named_by_what_varies(self):
        cs = self.cells_of('kernel 6.1 6.12\ncpus 2 4\n')
        self.assertEqual([c['name'] for c in cs], ['6.1-2cpu', '6.1-4cpu', '6.12-2cpu', '6.12-4cpu'])

    def test_a_bad_axis_says_where(self):
        with self.assertRaisesRegex(matrix.MatrixError, r':2: unknown axis "colour"'):
            self.cells_of('kernel 6.1\ncolour red\n')


if __name__ == '__main__':
    unittest.main()
