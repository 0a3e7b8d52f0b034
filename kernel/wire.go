package kernel

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"os"
	"strings"
	"time"

	"github.com/google/uuid"
)

// ProtocolVersion is the version of the Jupyter messaging protocol the
// kernel speaks.
const ProtocolVersion = "5.3"

// ConnectionInfo is the content of a Jupyter connection file.
type ConnectionInfo struct {
	Transport       string `json:"transport"`
	IP              string `json:"ip"`
	ShellPort       int    `json:"shell_port"`
	ControlPort     int    `json:"control_port"`
	StdinPort       int    `json:"stdin_port"`
	IOPubPort       int    `json:"iopub_port"`
	HBPort          int    `json:"hb_port"`
	Key             string `json:"key"`
	SignatureScheme string `json:"signature_scheme"`
	KernelName      string `json:"kernel_name,omitempty"`
}

// ReadConnectionFile reads and checks a connection file.
func ReadConnectionFile(path string) (ConnectionInfo, error) {
	var ci ConnectionInfo
	data, err := os.ReadFile(path)
	if err != nil {
		return ci, err
	}
	if err := json.Unmarshal(data, &ci); err != nil {
		return ci, fmt.Errorf("connection file %s: %w", path, err)
	}
	if ci.Transport == "" {
		ci.Transport = "tcp"
	}
	if ci.IP == "" {
		ci.IP = "127.0.0.1"
	}
	if ci.SignatureScheme == "" {
		ci.SignatureScheme = "hmac-sha256"
	}
	if _, err := ci.signer(); err != nil {
		return ci, fmt.Errorf("connection file %s: %w", path, err)
	}
	return ci, nil
}

// endpoint returns the ZeroMQ address of a port.
func (ci ConnectionInfo) endpoint(port int) string {
	if ci.Transport == "ipc" {
		return fmt.Sprintf("ipc://%s-%d", ci.IP, port)
	}
	return fmt.Sprintf("%s://%s:%d", ci.Transport, ci.IP, port)
}

// signer returns the HMAC constructor of the signature scheme, nil for an
// empty key (no signing).
func (ci ConnectionInfo) signer() (func() hash.Hash, error) {
	if ci.Key == "" {
		return nil, nil
	}
	var h func() hash.Hash
	switch ci.SignatureScheme {
	case "hmac-sha256":
		h = sha256.New
	case "hmac-sha512":
		h = sha512.New
	case "hmac-sha1":
		h = sha1.New
	default:
		return nil, fmt.Errorf("unsupported signature scheme %q", ci.SignatureScheme)
	}
	key := []byte(ci.Key)
	return func() hash.Hash { return hmac.New(h, key) }, nil
}

// Header is a message header.
type Header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     string `json:"date"`
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// Message is a Jupyter message as it travels on a socket.
type Message struct {
	Identities [][]byte
	Header     Header
	// Parent is the parent header exactly as received ({} for none).
	Parent   json.RawMessage
	Metadata json.RawMessage
	Content  json.RawMessage
	Buffers  [][]byte

	raw json.RawMessage // the header as received
}

// delimiter separates the routing identities from the message.
var delimiter = []byte("<IDS|MSG>")

// errSignature is returned for a message whose signature is wrong.
var errSignature = errors.New("invalid message signature")

// decode parses the frames of a message and checks its signature.
func decode(frames [][]byte, mac func() hash.Hash) (*Message, error) {
	i := 0
	for i < len(frames) && !bytes.Equal(frames[i], delimiter) {
		i++
	}
	if i == len(frames) || len(frames)-i < 6 {
		return nil, fmt.Errorf("malformed message: %d frames, delimiter at %d", len(frames), i)
	}
	m := &Message{Identities: frames[:i]}
	sig, parts := frames[i+1], frames[i+2:i+6]
	if mac != nil {
		h := mac()
		for _, p := range parts {
			h.Write(p)
		}
		want := h.Sum(nil)
		got, err := hex.DecodeString(string(sig))
		if err != nil || !hmac.Equal(got, want) {
			return nil, errSignature
		}
	}
	if err := json.Unmarshal(parts[0], &m.Header); err != nil {
		return nil, fmt.Errorf("message header: %w", err)
	}
	m.raw = parts[0]
	m.Parent, m.Metadata, m.Content = parts[1], parts[2], parts[3]
	m.Buffers = frames[i+6:]
	return m, nil
}

// encode returns the frames of a message, signed.
func (m *Message) encode(mac func() hash.Hash) ([][]byte, error) {
	header, err := json.Marshal(m.Header)
	if err != nil {
		return nil, err
	}
	parent := m.Parent
	if len(parent) == 0 {
		parent = json.RawMessage("{}")
	}
	metadata := m.Metadata
	if len(metadata) == 0 {
		metadata = json.RawMessage("{}")
	}
	content := m.Content
	if len(content) == 0 {
		content = json.RawMessage("{}")
	}
	parts := [][]byte{header, parent, metadata, content}
	sig := ""
	if mac != nil {
		h := mac()
		for _, p := range parts {
			h.Write(p)
		}
		sig = hex.EncodeToString(h.Sum(nil))
	}
	frames := make([][]byte, 0, len(m.Identities)+6+len(m.Buffers))
	frames = append(frames, m.Identities...)
	frames = append(frames, delimiter, []byte(sig))
	frames = append(frames, parts...)
	frames = append(frames, m.Buffers...)
	return frames, nil
}

// newMessage returns a message of type msgType with content, as a reply to
// (or output of) parent when parent is not nil.
func newMessage(msgType string, parent *Message, content any) (*Message, error) {
	data, err := json.Marshal(content)
	if err != nil {
		return nil, err
	}
	m := &Message{
		Header: Header{
			MsgID:   uuid.NewString(),
			Date:    time.Now().UTC().Format("2006-01-02T15:04:05.000000Z07:00"),
			MsgType: msgType,
			Version: ProtocolVersion,
		},
		Content: data,
	}
	if parent != nil {
		m.Header.Session = parent.Header.Session
		m.Header.Username = parent.Header.Username
		m.Parent = parent.rawHeader()
		m.Identities = parent.Identities
	} else {
		m.Header.Session = kernelSession
		m.Header.Username = "portlab"
	}
	return m, nil
}

// kernelSession identifies this kernel process in messages without a
// parent.
var kernelSession = uuid.NewString()

// rawHeader returns the message's header as JSON, for the parent header of
// its replies.
func (m *Message) rawHeader() json.RawMessage {
	if m.raw != nil {
		return m.raw
	}
	data, _ := json.Marshal(m.Header)
	return data
}

// topic returns the IOPub topic of a message type.
func topic(msgType string) []byte {
	return []byte("kernel." + strings.ReplaceAll(kernelSession, "-", "")[:12] + "." + msgType)
}
