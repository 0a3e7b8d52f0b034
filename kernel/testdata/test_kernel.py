"""Jupyter conformance test of the portlab kernel (jupyter_kernel_test).

Run by .ci/kernel.sh with Debian's python3 after `portlab install --prefix`,
with JUPYTER_PATH pointing at the prefix's share/jupyter. Every test the
suite offers has samples here; PortlabKernelBehaviour adds what the suite
does not cover: interrupt through jupyter_client (interrupt_mode "message")
and input requests on the stdin channel.
"""

import time
import unittest

import jupyter_kernel_test
from jupyter_client.manager import start_new_kernel


class PortlabKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = "portlab"

    language_name = "go"
    file_extension = ".go"

    code_hello_world = 'fmt.Println("hello, world")'
    code_stderr = 'fmt.Fprintln(os.Stderr, "to stderr")'

    completion_samples = [
        {"text": "throughput.Pre", "matches": {"Predict"}},
        {"text": "portmap.NewExp", "matches": {"NewExperiment"}},
        {"text": "metrics.Kend", "matches": {"KendallTauB"}},
    ]

    complete_code_samples = ["x := 1", 'fmt.Println("a")', "func f() {}"]
    incomplete_code_samples = ["func f() {", "x := 1 +", "for i := 0; i < 3; i++ {\n\tfmt.Println(i)"]
    invalid_code_samples = ["x := (1))", "}", "x := := 3"]

    code_page_something = "%doc throughput.Bottleneck"

    code_generate_error = 'panic("boom")'

    code_execute_result = [
        {"code": "6*7", "result": "42"},
        {"code": '"port" + "lab"', "result": '"portlab"'},
        {"code": "len([]int{1, 2, 3})", "result": "3"},
        {
            "code": 'portmap.MustMapping("m", "p0", "p1").MustSetUsage("add", "1*[p0,p1]")',
            "mime": "text/html",
        },
    ]

    code_display_data = [
        {"code": 'display.Show(display.HTML("<b>bold</b>"))', "mime": "text/html"},
        {"code": 'display.Show(display.SVG("<svg xmlns=\'http://www.w3.org/2000/svg\'></svg>"))', "mime": "image/svg+xml"},
        {"code": 'display.Show(display.Markdown("*md*"))', "mime": "text/markdown"},
        {"code": 'display.Show(display.JSON(map[string]int{"a": 1}))', "mime": "application/json"},
    ]

    code_history_pattern = "6*7"
    supported_history_operations = ("tail", "range", "search")

    code_inspect_sample = "throughput.LP"

    code_clear_output = "display.ClearOutput(true)"


class PortlabKernelBehaviour(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.km, cls.kc = start_new_kernel(kernel_name="portlab")

    @classmethod
    def tearDownClass(cls):
        cls.kc.stop_channels()
        cls.km.shutdown_kernel()

    def reply(self, msg_id, timeout=15):
        while True:
            msg = self.kc.get_shell_msg(timeout=timeout)
            if msg["parent_header"].get("msg_id") == msg_id:
                return msg["content"]

    def test_interrupt_keeps_state(self):
        self.kc.execute_interactive("n := 0", timeout=15)
        msg_id = self.kc.execute("for { n++ }")
        time.sleep(0.5)
        start = time.monotonic()
        self.km.interrupt_kernel()
        content = self.reply(msg_id)
        self.assertLess(time.monotonic() - start, 1.5)
        self.assertEqual(content["status"], "error")
        self.assertEqual(content["ename"], "Interrupted")
        outputs = []
        reply = self.kc.execute_interactive("n > 0", timeout=15, output_hook=outputs.append)
        self.assertEqual(reply["content"]["status"], "ok")
        results = [m["content"]["data"]["text/plain"] for m in outputs if m["msg_type"] == "execute_result"]
        self.assertEqual(results, ["true"])

    def test_input_request(self):
        prompts = []

        def answer(msg):
            prompts.append(msg["content"]["prompt"])
            self.kc.input("Ada")

        outputs = []
        reply = self.kc.execute_interactive(
            'name := display.Input("name? ")\n"hello " + name',
            timeout=15,
            allow_stdin=True,
            stdin_hook=answer,
            output_hook=outputs.append,
        )
        self.assertEqual(reply["content"]["status"], "ok")
        self.assertEqual(prompts, ["name? "])
        results = [m["content"]["data"]["text/plain"] for m in outputs if m["msg_type"] == "execute_result"]
        self.assertEqual(results, ['"hello Ada"'])


if __name__ == "__main__":
    unittest.main()
