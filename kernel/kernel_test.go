package kernel

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"hash"

	"github.com/go-zeromq/zmq4"
	"github.com/google/uuid"
	"github.com/portlab/portlab/kernel/session"
)

// freePorts returns n free TCP ports on the loopback interface.
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	var ports []int
	var ls []net.Listener
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// client talks to an in-process kernel the way a Jupyter front end does:
// DEALER sockets for shell, control and stdin, a SUB socket for IOPub.
type client struct {
	t                     testing.TB
	ci                    ConnectionInfo
	kernel                *Kernel
	runErr                chan error
	shell, control, stdin zmq4.Socket
	iopub                 zmq4.Socket
	received              map[zmq4.Socket]chan *Message
	session               string
}

func startKernel(t testing.TB) *client {
	t.Helper()
	ci := testConnection(t)
	sess, err := session.New(session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	k, err := New(ctx, ci, Options{Session: sess, Log: testWriter{t}})
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, ci)
	c.kernel = k
	go func() { c.runErr <- k.Run() }()
	t.Cleanup(func() {
		k.Close()
		cancel()
		sess.Close()
	})
	c.waitReady()
	return c
}

// testConnection returns connection information with free ports.
func testConnection(t testing.TB) ConnectionInfo {
	ports := freePorts(t, 5)
	return ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", ShellPort: ports[0], ControlPort: ports[1],
		StdinPort: ports[2], IOPubPort: ports[3], HBPort: ports[4], Key: "test-key", SignatureScheme: "hmac-sha256"}
}

// dial connects a client to the kernel of ci.
func dial(t testing.TB, ci ConnectionInfo) *client {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	c := &client{t: t, ci: ci, runErr: make(chan error, 1), session: uuid.NewString(),
		received: map[zmq4.Socket]chan *Message{}}
	c.shell = zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("shell-"+c.session[:8])))
	c.control = zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("control-"+c.session[:8])))
	c.stdin = zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("shell-"+c.session[:8])))
	c.iopub = zmq4.NewSub(ctx)
	for _, d := range []struct {
		s    zmq4.Socket
		port int
	}{{c.shell, ci.ShellPort}, {c.control, ci.ControlPort}, {c.stdin, ci.StdinPort}, {c.iopub, ci.IOPubPort}} {
		if err := d.s.Dial(ci.endpoint(d.port)); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.iopub.SetOption(zmq4.OptionSubscribe, ""); err != nil {
		t.Fatal(err)
	}
	for _, s := range []zmq4.Socket{c.shell, c.control, c.stdin, c.iopub} {
		ch := make(chan *Message, 256)
		c.received[s] = ch
		go func(s zmq4.Socket) {
			for {
				raw, err := s.Recv()
				if err != nil {
					return
				}
				frames := raw.Frames
				if s == c.iopub {
					frames = frames[1:] // topic
				}
				m, err := decode(frames, mustSigner(ci))
				if err != nil {
					t.Errorf("client: bad message from the kernel: %v", err)
					continue
				}
				ch <- m
			}
		}(s)
	}
	t.Cleanup(func() {
		for _, s := range []zmq4.Socket{c.shell, c.control, c.stdin, c.iopub} {
			s.Close()
		}
		cancel()
	})
	return c
}

// waitReady asks for kernel info until the kernel's IOPub statuses arrive
// (IOPub subscriptions take effect asynchronously).
func (c *client) waitReady() {
	c.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		id := c.send(c.shell, "kernel_info_request", map[string]any{})
		c.recv(c.shell, "kernel_info_reply", id)
		select {
		case <-c.received[c.iopub]:
			c.drainIOPub()
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
	c.t.Fatal("no IOPub messages from the kernel")
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

func mustSigner(ci ConnectionInfo) func() hash.Hash {
	mac, err := ci.signer()
	if err != nil {
		panic(err)
	}
	return mac
}

// send sends a request and returns its msg_id.
func (c *client) send(s zmq4.Socket, msgType string, content any) string {
	return c.sendSigned(s, msgType, content, mustSigner(c.ci))
}

func (c *client) sendSigned(s zmq4.Socket, msgType string, content any, mac func() hash.Hash) string {
	c.t.Helper()
	m, err := newMessage(msgType, nil, content)
	if err != nil {
		c.t.Fatal(err)
	}
	m.Header.Session = c.session
	m.Header.Username = "tester"
	frames, err := m.encode(mac)
	if err != nil {
		c.t.Fatal(err)
	}
	if err := s.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		c.t.Fatal(err)
	}
	return m.Header.MsgID
}

// recv returns the next message on s, which must be of type msgType with
// parent parentID.
func (c *client) recv(s zmq4.Socket, msgType, parentID string) *Message {
	c.t.Helper()
	select {
	case m := <-c.received[s]:
		if m.Header.MsgType != msgType {
			c.t.Fatalf("got %s, want %s: %s", m.Header.MsgType, msgType, m.Content)
		}
		if parentID != "" && parentOf(m) != parentID {
			c.t.Fatalf("%s has parent %s, want %s", msgType, parentOf(m), parentID)
		}
		return m
	case <-time.After(10 * time.Second):
		c.t.Fatalf("no %s within 10 s", msgType)
	}
	return nil
}

func parentOf(m *Message) string {
	var h Header
	_ = json.Unmarshal(m.Parent, &h)
	return h.MsgID
}

// iopubUntilIdle returns the IOPub messages for parentID up to and
// including its idle status.
func (c *client) iopubUntilIdle(parentID string) []*Message {
	c.t.Helper()
	var out []*Message
	for {
		select {
		case m := <-c.received[c.iopub]:
			if parentOf(m) != parentID {
				continue
			}
			out = append(out, m)
			if m.Header.MsgType == "status" && content(m)["execution_state"] == "idle" {
				return out
			}
		case <-time.After(10 * time.Second):
			c.t.Fatalf("no idle status for %s; got %v", parentID, types(out))
		}
	}
}

func (c *client) drainIOPub() {
	for {
		select {
		case <-c.received[c.iopub]:
		case <-time.After(50 * time.Millisecond):
			return
		}
	}
}

func content(m *Message) map[string]any {
	var c map[string]any
	_ = json.Unmarshal(m.Content, &c)
	return c
}

func types(ms []*Message) []string {
	var out []string
	for _, m := range ms {
		t := m.Header.MsgType
		if t == "status" {
			t += ":" + content(m)["execution_state"].(string)
		}
		out = append(out, t)
	}
	return out
}

// execute runs code and returns the reply and the IOPub messages.
func (c *client) execute(code string, extra map[string]any) (map[string]any, []*Message) {
	c.t.Helper()
	req := map[string]any{"code": code, "silent": false, "store_history": true, "user_expressions": map[string]any{},
		"allow_stdin": false, "stop_on_error": true}
	for k, v := range extra {
		req[k] = v
	}
	id := c.send(c.shell, "execute_request", req)
	reply := c.recv(c.shell, "execute_reply", id)
	return content(reply), c.iopubUntilIdle(id)
}

func TestKernelInfo(t *testing.T) {
	c := startKernel(t)
	id := c.send(c.shell, "kernel_info_request", map[string]any{})
	r := content(c.recv(c.shell, "kernel_info_reply", id))
	li := r["language_info"].(map[string]any)
	if r["status"] != "ok" || r["protocol_version"] != ProtocolVersion || li["name"] != "go" ||
		li["mimetype"] != "text/x-go" || li["file_extension"] != ".go" || li["codemirror_mode"] != "go" {
		t.Errorf("kernel_info_reply: %v", r)
	}
	if links, _ := r["help_links"].([]any); len(links) == 0 || r["banner"] == "" {
		t.Errorf("no help links or banner: %v", r)
	}
	// The test's session has no host: display is its only package beyond
	// the standard library.
	if b, _ := r["banner"].(string); !strings.Contains(b, "\ndisplay is imported; %help lists the magics.") {
		t.Errorf("banner %q", b)
	}
}

func TestExecuteOrderAndResult(t *testing.T) {
	c := startKernel(t)
	reply, msgs := c.execute("fmt.Println(\"hello\")\n6*7", nil)
	if reply["status"] != "ok" || reply["execution_count"] != 1.0 {
		t.Fatalf("reply %v", reply)
	}
	want := "status:busy execute_input stream execute_result status:idle"
	if got := strings.Join(types(msgs), " "); got != want {
		t.Fatalf("IOPub %s, want %s", got, want)
	}
	if s := content(msgs[2]); s["name"] != "stdout" || s["text"] != "hello\n" {
		t.Errorf("stream %v", s)
	}
	if r := content(msgs[3]); r["data"].(map[string]any)["text/plain"] != "42" || r["execution_count"] != 1.0 {
		t.Errorf("execute_result %v", r)
	}
	reply, msgs = c.execute("x := 1", nil)
	if reply["execution_count"] != 2.0 || len(msgs) != 3 {
		t.Errorf("second cell: %v %v", reply, types(msgs))
	}
}

func TestExecuteError(t *testing.T) {
	c := startKernel(t)
	c.execute("kept := 5", nil)
	reply, msgs := c.execute("var xs []int\n_ = xs[2]", nil)
	if reply["status"] != "error" || reply["ename"] != "Panic" {
		t.Fatalf("reply %v", reply)
	}
	tb, ok := reply["traceback"].([]any)
	if !ok || len(tb) == 0 {
		t.Fatalf("traceback %v is not a list of strings", reply["traceback"])
	}
	if got := strings.Join(types(msgs), " "); got != "status:busy execute_input error status:idle" {
		t.Errorf("IOPub %s", got)
	}
	if reply, msgs := c.execute("kept", nil); reply["status"] != "ok" || content(msgs[2])["data"].(map[string]any)["text/plain"] != "5" {
		t.Errorf("state lost after error: %v", reply)
	}
}

func TestBadSignatureIsDropped(t *testing.T) {
	c := startKernel(t)
	wrong := ConnectionInfo{Key: "wrong-key", SignatureScheme: "hmac-sha256"}
	c.sendSigned(c.shell, "execute_request", map[string]any{"code": "hacked := 1", "silent": false}, mustSigner(wrong))
	select {
	case m := <-c.received[c.shell]:
		t.Fatalf("the kernel answered a message with a bad signature: %s", m.Header.MsgType)
	case <-time.After(300 * time.Millisecond):
	}
	reply, _ := c.execute("hacked", nil)
	if reply["status"] != "error" {
		t.Errorf("the badly signed cell was executed: %v", reply)
	}
}

func TestInterruptByMessage(t *testing.T) {
	if raceDetector {
		t.Skip("yaegi's interrupted goroutine unwinds without a synchronisation the race detector sees")
	}
	c := startKernel(t)
	c.execute("n := 0", nil)
	id := c.send(c.shell, "execute_request", map[string]any{"code": "for { n++ }", "silent": false})
	time.Sleep(200 * time.Millisecond)
	start := time.Now()
	iid := c.send(c.control, "interrupt_request", map[string]any{})
	if r := content(c.recv(c.control, "interrupt_reply", iid)); r["status"] != "ok" {
		t.Errorf("interrupt_reply %v", r)
	}
	reply := content(c.recv(c.shell, "execute_reply", id))
	if d := time.Since(start); d > time.Second {
		t.Errorf("interrupt took %v", d)
	}
	if reply["status"] != "error" || reply["ename"] != "Interrupted" {
		t.Errorf("reply %v", reply)
	}
	c.iopubUntilIdle(id)
	if reply, msgs := c.execute("n > 0", nil); reply["status"] != "ok" || content(msgs[2])["data"].(map[string]any)["text/plain"] != "true" {
		t.Errorf("session unusable after interrupt: %v", reply)
	}
}

func TestInputRequest(t *testing.T) {
	c := startKernel(t)
	id := c.send(c.shell, "execute_request", map[string]any{"code": "name := display.Input(\"name? \")\n\"hi \" + name",
		"silent": false, "allow_stdin": true})
	req := content(c.recv(c.stdin, "input_request", id))
	if req["prompt"] != "name? " || req["password"] != false {
		t.Errorf("input_request %v", req)
	}
	c.send(c.stdin, "input_reply", map[string]any{"value": "Ada"})
	if reply := content(c.recv(c.shell, "execute_reply", id)); reply["status"] != "ok" {
		t.Fatalf("reply %v", reply)
	}
	msgs := c.iopubUntilIdle(id)
	if got := content(msgs[len(msgs)-2])["data"].(map[string]any)["text/plain"]; got != `"hi Ada"` {
		t.Errorf("value %v", got)
	}
	// Without allow_stdin the cell gets no input instead of hanging.
	reply, _ := c.execute("display.Input(\"? \")", nil)
	if reply["status"] != "ok" {
		t.Errorf("input without stdin: %v", reply)
	}
}

func TestDisplayUpdate(t *testing.T) {
	c := startKernel(t)
	_, msgs := c.execute(`display.ShowAs("progress", display.Text("0 %"))
display.Update("progress", display.Text("100 %"))`, nil)
	got := strings.Join(types(msgs), " ")
	if got != "status:busy execute_input display_data update_display_data status:idle" {
		t.Fatalf("IOPub %s", got)
	}
	for _, m := range msgs[2:4] {
		tr, _ := content(m)["transient"].(map[string]any)
		if tr["display_id"] != "progress" {
			t.Errorf("%s transient %v", m.Header.MsgType, content(m)["transient"])
		}
	}
}

func TestCompleteInspectHistory(t *testing.T) {
	c := startKernel(t)
	c.execute("6*7", nil)
	c.execute("b := display.Text(\"x\")", nil)

	id := c.send(c.shell, "complete_request", map[string]any{"code": "x := strings.HasSu", "cursor_pos": 18})
	r := content(c.recv(c.shell, "complete_reply", id))
	if r["status"] != "ok" || r["cursor_start"] != 13.0 || r["cursor_end"] != 18.0 || len(r["matches"].([]any)) != 1 {
		t.Errorf("complete_reply %v", r)
	}
	id = c.send(c.shell, "inspect_request", map[string]any{"code": "b.PlainText", "cursor_pos": 4, "detail_level": 0})
	r = content(c.recv(c.shell, "inspect_reply", id))
	if r["found"] != true || !strings.Contains(r["data"].(map[string]any)["text/plain"].(string), "PlainText returns b's text/plain representation") {
		t.Errorf("inspect_reply %v", r)
	}
	id = c.send(c.shell, "is_complete_request", map[string]any{"code": "func f() {"})
	if r := content(c.recv(c.shell, "is_complete_reply", id)); r["status"] != "incomplete" {
		t.Errorf("is_complete_reply %v", r)
	}
	id = c.send(c.shell, "history_request", map[string]any{"output": true, "raw": true, "hist_access_type": "tail", "n": 10})
	h := content(c.recv(c.shell, "history_reply", id))["history"].([]any)
	if len(h) != 2 {
		t.Fatalf("history %v", h)
	}
	first := h[0].([]any)
	if pair := first[2].([]any); first[1] != 1.0 || pair[0] != "6*7" || pair[1] != "42" {
		t.Errorf("history entry %v", first)
	}
	id = c.send(c.shell, "comm_info_request", map[string]any{})
	if r := content(c.recv(c.shell, "comm_info_reply", id)); r["status"] != "ok" || len(r["comms"].(map[string]any)) != 0 {
		t.Errorf("comm_info_reply %v", r)
	}
}

func TestStopOnErrorAbortsQueuedCells(t *testing.T) {
	c := startKernel(t)
	request := func(code string) string {
		return c.send(c.shell, "execute_request", map[string]any{"code": code, "silent": false, "stop_on_error": true})
	}
	failing := request("import \"time\"\ntime.Sleep(100 * time.Millisecond)\npanic(\"first cell fails\")")
	queued := request("queued := 1")
	if r := content(c.recv(c.shell, "execute_reply", failing)); r["status"] != "error" {
		t.Fatalf("first reply %v", r)
	}
	if r := content(c.recv(c.shell, "execute_reply", queued)); r["status"] != "aborted" {
		t.Errorf("queued cell: %v", r)
	}
	if reply, _ := c.execute("queued", nil); reply["status"] != "error" {
		t.Errorf("the aborted cell ran: %v", reply)
	}
	if reply, _ := c.execute("1", nil); reply["status"] != "ok" {
		t.Errorf("a cell sent after the error: %v", reply)
	}
}

func TestHeartbeat(t *testing.T) {
	c := startKernel(t)
	hb := zmq4.NewReq(context.Background())
	defer hb.Close()
	if err := hb.Dial(c.ci.endpoint(c.ci.HBPort)); err != nil {
		t.Fatal(err)
	}
	if err := hb.Send(zmq4.NewMsgString("ping")); err != nil {
		t.Fatal(err)
	}
	m, err := hb.Recv()
	if err != nil || string(m.Bytes()) != "ping" {
		t.Errorf("heartbeat echoed %q, %v", m.Bytes(), err)
	}
}

func TestShutdown(t *testing.T) {
	c := startKernel(t)
	id := c.send(c.control, "shutdown_request", map[string]any{"restart": false})
	if r := content(c.recv(c.control, "shutdown_reply", id)); r["status"] != "ok" || r["restart"] != false {
		t.Errorf("shutdown_reply %v", r)
	}
	select {
	case err := <-c.runErr:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("Run did not return after shutdown_request")
	}
}

// syncBuffer is a strings.Builder safe for the kernel's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A peer that is not a ZMTP client makes zmq4 log a line; it goes to the
// kernel's log, never to the process's standard error, which the session
// captures into the running cell.
func TestZMQLogGoesToKernelLog(t *testing.T) {
	ci := testConnection(t)
	sess, err := session.New(session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	var logb syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	k, err := New(ctx, ci, Options{Session: sess, Log: &logb})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	go k.Run()
	conn, err := net.Dial("tcp", ci.endpoint(ci.ShellPort)[len("tcp://"):])
	if err != nil {
		t.Fatal(err)
	}
	conn.Write([]byte("GET / HTTP/1.0\r\n\r\n"))
	conn.Close()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if strings.Contains(logb.String(), "could not open a ZMTP connection") {
			return
		}
	}
	t.Errorf("zmq4's line about the failed connection is not in the kernel's log; log:\n%s", logb.String())
}
