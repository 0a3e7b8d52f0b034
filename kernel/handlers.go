package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/portlab/portlab/kernel/display"
	"github.com/portlab/portlab/kernel/session"
)

// streamDelay is how long stream text is collected before it is published,
// so that a loop printing many lines sends few messages.
const streamDelay = 20 * time.Millisecond

type executeRequest struct {
	Code            string            `json:"code"`
	Silent          bool              `json:"silent"`
	StoreHistory    *bool             `json:"store_history"`
	UserExpressions map[string]string `json:"user_expressions"`
	AllowStdin      bool              `json:"allow_stdin"`
	StopOnError     bool              `json:"stop_on_error"`
}

func (k *Kernel) execute(m *Message, reply func(string, any)) {
	var req executeRequest
	if err := json.Unmarshal(m.Content, &req); err != nil {
		reply("execute_reply", errorContent(0, "BadRequest", err.Error(), nil))
		return
	}
	if k.aborting(m) {
		reply("execute_reply", map[string]any{"status": "aborted", "execution_count": k.sess.Count()})
		return
	}
	store := !req.Silent && (req.StoreHistory == nil || *req.StoreHistory)
	count := k.sess.Count()
	if store {
		count++
	}
	if !req.Silent {
		k.publish("execute_input", m, map[string]any{"code": req.Code, "execution_count": count})
	}
	ctx, cancel := context.WithCancel(k.ctx)
	k.cellMu.Lock()
	k.cancelCell = cancel
	k.cellMu.Unlock()
	defer func() {
		k.cellMu.Lock()
		k.cancelCell = nil
		k.cellMu.Unlock()
		cancel()
	}()
	out := &cellOutput{k: k, req: m, ctx: ctx, allowStdin: req.AllowStdin, silent: req.Silent}
	if k.crashNotice != "" && !req.Silent {
		k.publish("stream", m, map[string]any{"name": "stderr", "text": k.crashNotice})
		k.crashNotice = ""
	}
	var r session.Result
	if store {
		r = k.sess.Execute(ctx, req.Code, out)
	} else {
		r = k.sess.ExecuteSilently(ctx, req.Code, out)
	}
	out.flush()
	if r.Err != nil {
		if req.StopOnError {
			// Before the error and the reply: what the front end sends once
			// it has seen them is not aborted.
			k.abortMu.Lock()
			k.abortBefore = time.Now()
			k.abortSeen = k.abortBefore
			k.abortMu.Unlock()
		}
		if !req.Silent {
			k.publish("error", m, map[string]any{"ename": r.Err.Name, "evalue": r.Err.Value, "traceback": traceback(r.Err)})
		}
		reply("execute_reply", errorContent(count, r.Err.Name, r.Err.Value, traceback(r.Err)))
		return
	}
	if r.Value != nil && !req.Silent {
		k.publish("execute_result", m, map[string]any{"execution_count": count, "data": data(*r.Value), "metadata": metadata(*r.Value)})
	}
	payload := []any{}
	if r.Page != nil {
		payload = append(payload, map[string]any{"source": "page", "data": data(*r.Page), "start": 0})
	}
	userExpr := map[string]any{}
	for name, expr := range req.UserExpressions {
		er := k.sess.ExecuteSilently(ctx, expr, nil)
		switch {
		case er.Err != nil:
			userExpr[name] = errorContent(0, er.Err.Name, er.Err.Value, traceback(er.Err))
		case er.Value != nil:
			userExpr[name] = map[string]any{"status": "ok", "data": data(*er.Value), "metadata": metadata(*er.Value)}
		default:
			userExpr[name] = map[string]any{"status": "ok", "data": map[string]any{"text/plain": ""}, "metadata": map[string]any{}}
		}
	}
	reply("execute_reply", map[string]any{"status": "ok", "execution_count": count, "user_expressions": userExpr, "payload": payload})
}

// aborting reports whether an execute request was sent before a cell
// failed with stop_on_error: like IPython, the kernel then skips the cells
// a front end queued behind the failed one ("Run all" stops at the first
// error) and replies "aborted".
//
// The queued requests follow each other at once; a request handled more
// than abortWindow after the failure or the last aborted request is never
// aborted, so a front end whose clock lags the kernel's is not locked out.
func (k *Kernel) aborting(m *Message) bool {
	k.abortMu.Lock()
	defer k.abortMu.Unlock()
	if k.abortBefore.IsZero() || time.Since(k.abortSeen) > abortWindow {
		return false
	}
	sent, err := time.Parse(time.RFC3339Nano, m.Header.Date)
	if err != nil || !sent.Before(k.abortBefore) {
		return false
	}
	k.abortSeen = time.Now()
	return true
}

// abortWindow bounds the draining of queued requests after a failure.
const abortWindow = time.Second

func errorContent(count int, name, value string, tb []string) map[string]any {
	if tb == nil {
		tb = []string{name + ": " + value}
	}
	c := map[string]any{"status": "error", "ename": name, "evalue": value, "traceback": tb}
	if count > 0 {
		c["execution_count"] = count
	}
	return c
}

func traceback(e *session.Error) []string {
	if len(e.Traceback) == 0 {
		return []string{e.Name + ": " + e.Value}
	}
	return e.Traceback
}

// data returns a bundle's data, never nil.
func data(b display.Bundle) map[string]any {
	if b.Data == nil {
		return map[string]any{"text/plain": ""}
	}
	return b.Data
}

// metadata returns a bundle's metadata, never nil (front ends reject
// null).
func metadata(b display.Bundle) map[string]any {
	if b.Metadata == nil {
		return map[string]any{}
	}
	return b.Metadata
}

// cellOutput publishes what a cell produces on IOPub, with the execute
// request as parent.
type cellOutput struct {
	k          *Kernel
	req        *Message
	ctx        context.Context
	allowStdin bool
	silent     bool

	mu    sync.Mutex
	name  string // stream of the collected text
	text  strings.Builder
	timer *time.Timer
}

func (o *cellOutput) Stream(name, text string) {
	if o.silent {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.name != name && o.text.Len() > 0 {
		o.flushLocked()
	}
	o.name = name
	o.text.WriteString(text)
	if o.timer == nil {
		o.timer = time.AfterFunc(streamDelay, o.flush)
	}
}

// flush publishes the collected stream text.
func (o *cellOutput) flush() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.flushLocked()
}

func (o *cellOutput) flushLocked() {
	if o.timer != nil {
		o.timer.Stop()
		o.timer = nil
	}
	if o.text.Len() == 0 {
		return
	}
	o.k.publish("stream", o.req, map[string]any{"name": o.name, "text": o.text.String()})
	o.text.Reset()
}

func (o *cellOutput) Display(b display.Bundle, id string, update bool) {
	if o.silent {
		return
	}
	o.flush()
	content := map[string]any{"data": data(b), "metadata": metadata(b), "transient": map[string]any{}}
	if id != "" {
		content["transient"] = map[string]any{"display_id": id}
	}
	msgType := "display_data"
	if update {
		msgType = "update_display_data"
	}
	o.k.publish(msgType, o.req, content)
}

func (o *cellOutput) Clear(wait bool) {
	if o.silent {
		return
	}
	o.flush()
	o.k.publish("clear_output", o.req, map[string]any{"wait": wait})
}

// errNoStdin is returned by Input when the front end does not accept
// input requests.
var errNoStdin = errors.New("the front end does not accept input (allow_stdin is false)")

func (o *cellOutput) Input(prompt string, password bool) (string, error) {
	o.flush()
	if !o.allowStdin {
		return "", errNoStdin
	}
	k := o.k
	for { // drop stale replies
		select {
		case <-k.stdinReplies:
			continue
		default:
		}
		break
	}
	m, err := newMessage("input_request", o.req, map[string]any{"prompt": prompt, "password": password})
	if err != nil {
		return "", err
	}
	k.send(k.stdin, &k.stdinMu, m)
	select {
	case r := <-k.stdinReplies:
		var c struct {
			Value string `json:"value"`
		}
		if err := json.Unmarshal(r.Content, &c); err != nil {
			return "", err
		}
		return c.Value, nil
	case <-o.ctx.Done():
		return "", o.ctx.Err()
	}
}

func (k *Kernel) complete(m *Message) map[string]any {
	var c struct {
		Code      string `json:"code"`
		CursorPos int    `json:"cursor_pos"`
	}
	_ = json.Unmarshal(m.Content, &c)
	off := session.RuneOffset(c.Code, c.CursorPos)
	matches, start := k.sess.Complete(c.Code, off)
	if matches == nil {
		matches = []string{}
	}
	return map[string]any{"status": "ok", "matches": matches,
		"cursor_start": session.Runes(c.Code, start), "cursor_end": session.Runes(c.Code, off), "metadata": map[string]any{}}
}

func (k *Kernel) inspect(m *Message) map[string]any {
	var c struct {
		Code      string `json:"code"`
		CursorPos int    `json:"cursor_pos"`
	}
	_ = json.Unmarshal(m.Content, &c)
	b, found := k.sess.Inspect(c.Code, session.RuneOffset(c.Code, c.CursorPos))
	d := map[string]any{}
	if found {
		d = data(b)
	}
	return map[string]any{"status": "ok", "found": found, "data": d, "metadata": map[string]any{}}
}

func (k *Kernel) isComplete(m *Message) map[string]any {
	var c struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(m.Content, &c)
	status, indent := session.IsComplete(c.Code)
	r := map[string]any{"status": status}
	if status == "incomplete" {
		r["indent"] = indent
	}
	return r
}

// historySession is the session number of the current session in history
// replies.
const historySession = 1

type historyRequest struct {
	Output         bool   `json:"output"`
	Raw            bool   `json:"raw"`
	HistAccessType string `json:"hist_access_type"`
	Session        int    `json:"session"`
	Start          int    `json:"start"`
	Stop           int    `json:"stop"`
	N              int    `json:"n"`
	Pattern        string `json:"pattern"`
	Unique         bool   `json:"unique"`
}

func (k *Kernel) history(m *Message) map[string]any {
	var req historyRequest
	_ = json.Unmarshal(m.Content, &req)
	return map[string]any{"status": "ok", "history": historyEntries(k.sess.History(), req)}
}

// historyEntries selects history entries as IPython does for the access
// types tail (the last n), range (lines start to stop of the session) and
// search (glob pattern, optionally unique, the last n).
func historyEntries(all []session.HistoryEntry, req historyRequest) []any {
	var sel []session.HistoryEntry
	switch req.HistAccessType {
	case "tail":
		sel = all
		if req.N > 0 && len(sel) > req.N {
			sel = sel[len(sel)-req.N:]
		}
	case "range":
		if req.Session <= 0 || req.Session == historySession {
			for _, e := range all {
				if e.Line >= req.Start && (req.Stop <= 0 || e.Line < req.Stop) {
					sel = append(sel, e)
				}
			}
		}
	case "search":
		re := globPattern(req.Pattern)
		seen := map[string]bool{}
		for i := len(all) - 1; i >= 0; i-- {
			e := all[i]
			if !re.MatchString(e.Input) || req.Unique && seen[e.Input] {
				continue
			}
			seen[e.Input] = true
			sel = append([]session.HistoryEntry{e}, sel...)
			if req.N > 0 && len(sel) == req.N {
				break
			}
		}
	}
	out := make([]any, 0, len(sel))
	for _, e := range sel {
		if req.Output {
			out = append(out, []any{historySession, e.Line, []any{e.Input, e.Output}})
		} else {
			out = append(out, []any{historySession, e.Line, e.Input})
		}
	}
	return out
}

// globPattern turns a glob (* and ?) into an anchored regular expression.
func globPattern(glob string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("(?s)^")
	for _, r := range glob {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}
