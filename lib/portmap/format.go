package portmap

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
)

// FormatError reports bad input in a mapping or experiment file: the file,
// the position (line and column, when the JSON itself is malformed) or the
// JSON path of the offending value, and what is wrong.
type FormatError struct {
	File   string // file name, or a description such as "<input>"
	Line   int    // 1-based; 0 when unknown
	Column int    // 1-based; 0 when unknown
	Path   string // JSON path such as `exps[3].iseq[1]`; "" when unknown
	Err    error
}

func (e *FormatError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Column)
	}
	if e.Path != "" {
		b.WriteString(": ")
		b.WriteString(e.Path)
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *FormatError) Unwrap() error { return e.Err }

func ferr(file, path string, format string, args ...any) error {
	return &FormatError{File: file, Path: path, Err: fmt.Errorf(format, args...)}
}

// decodeJSON unmarshals data into v and turns syntax and type errors into
// FormatErrors with line and column.
func decodeJSON(file string, data []byte, v any, strict bool) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if strict {
		dec.DisallowUnknownFields()
	}
	err := dec.Decode(v)
	if err == nil {
		if _, err2 := dec.Token(); err2 != io.EOF {
			off := dec.InputOffset()
			line, col := lineCol(data, off)
			return &FormatError{File: file, Line: line, Column: col, Err: errors.New("unexpected data after the top-level JSON value")}
		}
		return nil
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		// Offset counts the offending byte; point at it.
		line, col := lineCol(data, max(0, syn.Offset-1))
		return &FormatError{File: file, Line: line, Column: col, Err: fmt.Errorf("malformed JSON: %v", syn)}
	case errors.As(err, &typ):
		line, col := lineCol(data, typ.Offset)
		return &FormatError{File: file, Line: line, Column: col, Path: typ.Field, Err: fmt.Errorf("JSON %s where %s is expected", typ.Value, jsonKind(typ.Type))}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		line, col := lineCol(data, int64(len(data)))
		return &FormatError{File: file, Line: line, Column: col, Err: errors.New("unexpected end of JSON input")}
	}
	return &FormatError{File: file, Err: err}
}

// jsonKind names what a Go type expects in JSON terms ("an object", "a
// number"), so that errors never name portmap's internal types.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "another value"
}

func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line, col := 1, 1
	for _, c := range data[:off] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// kindOf returns the "kind" (PMEvo) or "format" (portlab) tag of a JSON
// object, to tell the formats apart.
func kindOf(file string, data []byte) (string, error) {
	var tag struct {
		Kind   string `json:"kind"`
		Format string `json:"format"`
	}
	if err := decodeJSON(file, data, &tag, false); err != nil {
		return "", err
	}
	if tag.Format != "" {
		return tag.Format, nil
	}
	return tag.Kind, nil
}

// ReadMapping reads a mapping file in any supported format: portlab's own
// (see the package documentation) or PMEvo's Mapping3 / Mapping2 JSON.
func ReadMapping(path string) (*Mapping, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return DecodeMapping(path, data)
}

// DecodeMapping decodes a mapping in any supported format from data; name
// is used in error messages.
func DecodeMapping(name string, data []byte) (*Mapping, error) {
	kind, err := kindOf(name, data)
	if err != nil {
		return nil, err
	}
	switch kind {
	case MappingFormat:
		return decodeOwnMapping(name, data)
	case "Mapping3", "Mapping2":
		return decodePMEvoMapping(name, data)
	}
	return nil, ferr(name, "", "not a mapping: format/kind %q (want %q, \"Mapping3\" or \"Mapping2\")", kind, MappingFormat)
}

// ReadExperiments reads an experiment file in any supported format:
// portlab's own or PMEvo's ExperimentList JSON, or a campaign file of
// package measure (.jsonl or .jsonl.gz; see ReadCampaign, whose failed
// experiments are left out). A name ending in .gz is decompressed.
func ReadExperiments(path string) (*ExperimentSet, error) {
	if IsCampaign(path) {
		set, _, err := ReadCampaign(path)
		return set, err
	}
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return DecodeExperiments(path, data)
}

// DecodeExperiments decodes an experiment set in any supported format.
func DecodeExperiments(name string, data []byte) (*ExperimentSet, error) {
	kind, err := kindOf(name, data)
	if err != nil {
		return nil, err
	}
	switch kind {
	case ExperimentsFormat:
		return decodeOwnExperiments(name, data)
	case "ExperimentList":
		return decodePMEvoExperiments(name, data)
	}
	return nil, ferr(name, "", "not an experiment set: format/kind %q (want %q or \"ExperimentList\")", kind, ExperimentsFormat)
}

// writeJSON writes v indented to path atomically: into a temporary file in
// the same directory, renamed over path only when complete, so a crash never
// leaves a half-written file and concurrent writers do not collide.
func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if err := WriteFileAtomic(path, data); err != nil {
		return fmt.Errorf("portmap: writing %s: %w", path, err)
	}
	return nil
}

// WriteFileAtomic writes data to path through a temporary file in the same
// directory, renamed over path only when complete, so that a crash never
// leaves a half-written file and concurrent writers do not collide. The
// file is readable by everyone (mode 0644), as result files are meant to
// be shared.
func WriteFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
