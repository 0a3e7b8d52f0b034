package session

import (
	"bytes"
	"io"
	"os"

	"github.com/portlab/portlab/kernel/session/internal/yaegifix"
)

// flushMarker is written to a stream's pipe to learn when everything
// written before it has been forwarded.
var flushMarker = []byte("\x00\x01portlab-flush\x01\x00")

// A stream forwards what is written to a pipe to the session's current
// output, as it arrives.
type stream struct {
	name    string
	r, w    *os.File
	lines   bool // hold partial lines back (standard error, to filter noise)
	emit    func(name, text string)
	noise   func(line string)
	flushed chan struct{}
	done    chan struct{}
}

func newStream(name string, lines bool, emit func(name, text string), noise func(string)) (*stream, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	s := &stream{name: name, r: r, w: w, lines: lines, emit: emit, noise: noise,
		flushed: make(chan struct{}, 1), done: make(chan struct{})}
	go s.read()
	return s, nil
}

func (s *stream) read() {
	defer close(s.done)
	buf := make([]byte, 32<<10)
	var pending []byte
	for {
		n, err := s.r.Read(buf)
		pending = append(pending, buf[:n]...)
		for {
			i := bytes.Index(pending, flushMarker)
			if i < 0 {
				break
			}
			s.forward(pending[:i], true)
			pending = append(pending[:0], pending[i+len(flushMarker):]...)
			select {
			case s.flushed <- struct{}{}:
			default:
			}
		}
		// Keep back a suffix that may be the start of a marker.
		keep := 0
		for k := min(len(flushMarker)-1, len(pending)); k > 0; k-- {
			if bytes.HasPrefix(flushMarker, pending[len(pending)-k:]) {
				keep = k
				break
			}
		}
		rest := s.forward(pending[:len(pending)-keep], false)
		pending = append(append([]byte{}, rest...), pending[len(pending)-keep:]...)
		if err != nil {
			s.forward(pending, true)
			return
		}
	}
}

// forward emits data, filtering the interpreter's noise from standard
// error, and returns what it held back (a partial line) unless all is set.
func (s *stream) forward(data []byte, all bool) []byte {
	if !s.lines {
		if len(data) > 0 {
			s.emit(s.name, string(data))
		}
		return nil
	}
	var out bytes.Buffer
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			if !all {
				return data
			}
			i = len(data) - 1
		}
		line := data[:i+1]
		data = data[i+1:]
		if t := bytes.TrimRight(line, "\r\n"); yaegifix.Noise.Match(t) {
			s.noise(string(t))
			continue
		}
		out.Write(line)
	}
	if out.Len() > 0 {
		s.emit(s.name, out.String())
	}
	return nil
}

// flush returns when everything written to the stream before the call has
// been forwarded.
func (s *stream) flush() {
	if _, err := s.w.Write(flushMarker); err != nil {
		return
	}
	<-s.flushed
}

func (s *stream) close() {
	s.w.Close()
	<-s.done
	s.r.Close()
}

// NoiseFilter returns a writer that passes everything to w except the
// lines the interpreter writes on its own when a cell panics. The REPL puts
// it under the standard logger, which yaegi's internal panics write to.
func NoiseFilter(w io.Writer) io.Writer { return noiseFilter{w} }

type noiseFilter struct{ w io.Writer }

func (f noiseFilter) Write(p []byte) (int, error) {
	if yaegifix.Noise.Match(bytes.TrimRight(p, "\r\n")) {
		return len(p), nil
	}
	return f.w.Write(p)
}
