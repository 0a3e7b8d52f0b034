package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"log"
	"os"
	"path"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/portlab/portlab/kernel/session"
)

// Version is the kernel's implementation version.
var Version = "0.1.0-dev"

// Options configure a Kernel.
type Options struct {
	// Session runs the cells; nil means a new session with Host that
	// captures the process's standard output and error (see
	// session.Options).
	Session *session.Session
	// Host holds the compiled packages, with their documentation, that
	// the kernel's own session hands to cells (unused with Session): the
	// portlab command gives the library.
	Host session.Host
	// Log receives the kernel's diagnostics; nil means the process's
	// original standard error.
	Log io.Writer
	// PreviousCrash is what the Go runtime printed when the previous
	// kernel of the notebook died (see KeepCrashOutput); the kernel logs it
	// and shows it on the standard error of the first cell it runs.
	PreviousCrash string
}

// Kernel is a running Jupyter kernel. Start it with New, run it with Run.
type Kernel struct {
	ci   ConnectionInfo
	mac  func() hash.Hash
	sess *session.Session
	own  bool // the kernel made sess and closes it
	log  *log.Logger

	ctx    context.Context
	cancel context.CancelFunc

	shell, control, stdin, iopub, hb zmq4.Socket
	shellMu, controlMu, stdinMu      sync.Mutex
	iopubMu                          sync.Mutex

	cellMu     sync.Mutex
	cancelCell context.CancelFunc

	abortMu     sync.Mutex
	abortBefore time.Time // execute requests sent before are aborted…
	abortSeen   time.Time // …while they arrive within abortWindow of each other

	// crashNotice is shown by the next executed cell, then cleared.
	crashNotice string

	stdinReplies chan *Message
	done         chan struct{}
	doneOnce     sync.Once
}

// Serve runs a kernel for the connection file until a shutdown request or
// the end of ctx.
func Serve(ctx context.Context, connectionFile string, opts Options) error {
	ci, err := ReadConnectionFile(connectionFile)
	if err != nil {
		return err
	}
	crash, previous, err := KeepCrashOutput(connectionFile)
	if err != nil {
		fmt.Fprintf(os.Stderr, "portlab kernel: the runtime's crash output is not kept: %v\n", err)
	}
	defer crash.Close()
	if opts.PreviousCrash == "" {
		opts.PreviousCrash = previous
	}
	k, err := New(ctx, ci, opts)
	if err != nil {
		return err
	}
	defer k.Close()
	return k.Run()
}

// New binds the kernel's sockets to the addresses of ci and publishes the
// "starting" status.
func New(ctx context.Context, ci ConnectionInfo, opts Options) (*Kernel, error) {
	mac, err := ci.signer()
	if err != nil {
		return nil, err
	}
	k := &Kernel{ci: ci, mac: mac, sess: opts.Session, stdinReplies: make(chan *Message, 4), done: make(chan struct{})}
	if k.sess == nil {
		if k.sess, err = session.New(session.Options{CaptureStdio: true, Host: opts.Host}); err != nil {
			return nil, err
		}
		k.own = true
	}
	logw := opts.Log
	if logw == nil {
		logw = k.sess.LogWriter()
	}
	k.log = log.New(logw, "portlab kernel: ", log.LstdFlags)
	if opts.PreviousCrash != "" {
		k.crashNotice = crashNotice(opts.PreviousCrash)
		k.log.Print(k.crashNotice)
	}
	k.ctx, k.cancel = context.WithCancel(ctx)
	// zmq4 logs to the process's standard error by default, which the
	// session captures into the running cell; its lines (a client that
	// connects and goes, say) belong in the kernel's log instead.
	zlog := zmq4.WithLogger(log.New(logw, "portlab kernel: zmq4: ", log.LstdFlags))
	k.shell = zmq4.NewRouter(k.ctx, zlog)
	k.control = zmq4.NewRouter(k.ctx, zlog)
	k.stdin = zmq4.NewRouter(k.ctx, zlog)
	k.iopub = zmq4.NewPub(k.ctx, zlog)
	k.hb = zmq4.NewRep(k.ctx, zlog)
	for _, b := range []struct {
		s    zmq4.Socket
		port int
		name string
	}{{k.shell, ci.ShellPort, "shell"}, {k.control, ci.ControlPort, "control"}, {k.stdin, ci.StdinPort, "stdin"},
		{k.iopub, ci.IOPubPort, "iopub"}, {k.hb, ci.HBPort, "heartbeat"}} {
		if err := b.s.Listen(ci.endpoint(b.port)); err != nil {
			k.Close()
			return nil, fmt.Errorf("%s socket on %s: %w", b.name, ci.endpoint(b.port), err)
		}
	}
	k.publish("status", nil, map[string]any{"execution_state": "starting"})
	return k, nil
}

// Run serves requests until a shutdown request or the end of the context
// given to New.
func (k *Kernel) Run() error {
	go k.heartbeat()
	go k.loop(k.control, &k.controlMu, k.handleControl)
	go k.loop(k.stdin, &k.stdinMu, func(m *Message) {
		if m.Header.MsgType == "input_reply" {
			select {
			case k.stdinReplies <- m:
			default:
				k.log.Printf("dropping an input_reply no cell waits for")
			}
		}
	})
	go k.loop(k.shell, &k.shellMu, k.handleShell)
	select {
	case <-k.done:
		return nil
	case <-k.ctx.Done():
		if errors.Is(k.ctx.Err(), context.Canceled) {
			return nil
		}
		return k.ctx.Err()
	}
}

// Close closes the sockets (and the session the kernel made).
func (k *Kernel) Close() error {
	k.Interrupt()
	k.cancel()
	for _, s := range []zmq4.Socket{k.shell, k.control, k.stdin, k.iopub, k.hb} {
		if s != nil {
			s.Close()
		}
	}
	if k.own {
		k.sess.Close()
	}
	return nil
}

// Session returns the session that runs the kernel's cells.
func (k *Kernel) Session() *session.Session { return k.sess }

// Interrupt stops the running cell, if any.
func (k *Kernel) Interrupt() {
	k.cellMu.Lock()
	defer k.cellMu.Unlock()
	if k.cancelCell != nil {
		k.cancelCell()
	}
}

// stop ends Run.
func (k *Kernel) stop() { k.doneOnce.Do(func() { close(k.done) }) }

func (k *Kernel) heartbeat() {
	for {
		msg, err := k.hb.Recv()
		if err != nil {
			return
		}
		if err := k.hb.Send(msg); err != nil {
			return
		}
	}
}

// loop receives messages on a socket and hands the valid ones to handle,
// one at a time; messages with a bad signature are dropped and logged.
func (k *Kernel) loop(s zmq4.Socket, mu *sync.Mutex, handle func(*Message)) {
	for {
		raw, err := s.Recv()
		if err != nil {
			if k.ctx.Err() == nil {
				k.log.Printf("receive: %v", err)
			}
			return
		}
		m, err := decode(raw.Frames, k.mac)
		if err != nil {
			k.log.Printf("dropping message: %v", err)
			continue
		}
		handle(m)
	}
}

// send signs and sends m on s.
func (k *Kernel) send(s zmq4.Socket, mu *sync.Mutex, m *Message) {
	frames, err := m.encode(k.mac)
	if err != nil {
		k.log.Printf("encode %s: %v", m.Header.MsgType, err)
		return
	}
	mu.Lock()
	defer mu.Unlock()
	if err := s.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil && k.ctx.Err() == nil {
		k.log.Printf("send %s: %v", m.Header.MsgType, err)
	}
}

// publish sends a message on IOPub.
func (k *Kernel) publish(msgType string, parent *Message, content any) {
	m, err := newMessage(msgType, parent, content)
	if err != nil {
		k.log.Printf("%s: %v", msgType, err)
		return
	}
	m.Identities = [][]byte{topic(msgType)}
	k.send(k.iopub, &k.iopubMu, m)
}

// reply answers req on the socket it came from.
func (k *Kernel) reply(s zmq4.Socket, mu *sync.Mutex, req *Message, msgType string, content any) {
	m, err := newMessage(msgType, req, content)
	if err != nil {
		k.log.Printf("%s: %v", msgType, err)
		return
	}
	k.send(s, mu, m)
}

func (k *Kernel) handleShell(m *Message) {
	k.handle(m, k.shell, &k.shellMu)
}

func (k *Kernel) handleControl(m *Message) {
	switch m.Header.MsgType {
	case "interrupt_request":
		k.Interrupt()
		k.reply(k.control, &k.controlMu, m, "interrupt_reply", map[string]any{"status": "ok"})
		return
	}
	k.handle(m, k.control, &k.controlMu)
}

// handle answers a request between busy and idle statuses.
func (k *Kernel) handle(m *Message, s zmq4.Socket, mu *sync.Mutex) {
	k.publish("status", m, map[string]any{"execution_state": "busy"})
	defer k.publish("status", m, map[string]any{"execution_state": "idle"})
	reply := func(msgType string, content any) { k.reply(s, mu, m, msgType, content) }
	switch m.Header.MsgType {
	case "kernel_info_request":
		reply("kernel_info_reply", k.kernelInfo())
	case "execute_request":
		k.execute(m, reply)
	case "complete_request":
		reply("complete_reply", k.complete(m))
	case "inspect_request":
		reply("inspect_reply", k.inspect(m))
	case "is_complete_request":
		reply("is_complete_reply", k.isComplete(m))
	case "history_request":
		reply("history_reply", k.history(m))
	case "comm_info_request":
		reply("comm_info_reply", map[string]any{"status": "ok", "comms": map[string]any{}})
	case "shutdown_request":
		var c struct {
			Restart bool `json:"restart"`
		}
		_ = json.Unmarshal(m.Content, &c)
		content := map[string]any{"status": "ok", "restart": c.Restart}
		reply("shutdown_reply", content)
		k.publish("shutdown_reply", m, content)
		k.stop()
	case "interrupt_request":
		k.Interrupt()
		reply("interrupt_reply", map[string]any{"status": "ok"})
	case "comm_open":
		var c struct {
			CommID string `json:"comm_id"`
		}
		_ = json.Unmarshal(m.Content, &c)
		k.publish("comm_close", m, map[string]any{"comm_id": c.CommID, "data": map[string]any{}})
	case "comm_msg", "comm_close":
		// No comms are open.
	default:
		k.log.Printf("unhandled message %s", m.Header.MsgType)
	}
}

// kernelInfo is the content of kernel_info_reply; its banner names the
// packages beyond the standard library that the session imports.
func (k *Kernel) kernelInfo() map[string]any {
	var pkgs []string
	for _, p := range k.sess.Imported() {
		if strings.Contains(p, ".") { // not the standard library
			pkgs = append(pkgs, path.Base(p))
		}
	}
	imported := strings.Join(pkgs, ", ") + " is imported"
	if n := len(pkgs); n > 1 {
		imported = strings.Join(pkgs[:n-1], ", ") + " and " + pkgs[n-1] + " are imported"
	}
	// Cells are Go as the interpreter implements it: the language and the
	// standard library of Go 1.22 (yaegi v0.16.1), not the Go release that
	// compiled the kernel (the banner names both).
	const goVersion = "1.22"
	return map[string]any{
		"status":                 "ok",
		"protocol_version":       ProtocolVersion,
		"implementation":         "portlab",
		"implementation_version": Version,
		"language_info": map[string]any{
			"name":               "go",
			"version":            goVersion,
			"mimetype":           "text/x-go",
			"file_extension":     ".go",
			"pygments_lexer":     "go",
			"codemirror_mode":    "go",
			"nbconvert_exporter": "script",
		},
		"banner": "portlab " + Version + " — Go " + goVersion + " (yaegi v0.16.1; compiled packages built with " + runtime.Version() + ")\n" +
			imported + "; %help lists the magics.",
		"help_links": []map[string]string{
			{"text": "portlab packages", "url": "https://pkg.go.dev/github.com/portlab/portlab"},
			{"text": "Go documentation", "url": "https://go.dev/doc/"},
			{"text": "yaegi (the interpreter)", "url": "https://github.com/traefik/yaegi"},
		},
	}
}

// Log returns the kernel's logger.
func (k *Kernel) Log() *log.Logger { return k.log }
