package portmap

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Header is a line of a campaign file that says where and how the records
// after it were measured:
//
//	{"header":{"machine":{"vendor":"AuthenticAMD","family":25,"model":1,"stepping":1,"cycles_per_tick":1.42,"version":"0.1.0"},
//	  "settings":{"layout":"default","body_size":100,"passes":2,…},"cpus":[3],"time":"2026-11-27T14:00:00Z"}}
//
// package measure writes one when a campaign is opened (and again when a
// resumed campaign runs with a different design or shard). Campaign files
// of earlier portlab versions have none; they are read as before, their
// records of unknown provenance (MergeCampaigns refuses them). A Shard
// names the part of a design the file holds (see Shard).
type Header struct {
	Machine  Fingerprint `json:"machine"`
	Settings Settings    `json:"settings"`
	// Shard is set when the campaign measures one part of its designs.
	Shard *ShardPlan `json:"shard,omitempty"`
	// CPUs are the CPUs the workers were pinned to (not compared: the
	// nodes of a cluster hand out different ones).
	CPUs []int     `json:"cpus,omitempty"`
	Time time.Time `json:"time"`
}

// Fingerprint identifies the machine and program that measured: the CPU as
// Linux reports it, its microcode (empty where a virtual machine hides
// it), the calibrated core cycles per TSC tick (the core clock over the
// time-stamp counter's: a different clock set-up, turbo on or off, shows
// here), and the portlab version.
type Fingerprint struct {
	Vendor        string  `json:"vendor"`
	Family        int     `json:"family"`
	Model         int     `json:"model"`
	Stepping      int     `json:"stepping"`
	ModelName     string  `json:"model_name,omitempty"`
	Microcode     string  `json:"microcode,omitempty"`
	CyclesPerTick float64 `json:"cycles_per_tick"`
	Version       string  `json:"version"`
}

// Settings are the measurement settings of a campaign (package measure's
// Hardware and Campaign): results measured with different settings are
// not comparable.
type Settings struct {
	Layout     string  `json:"layout"`
	BodySize   int     `json:"body_size"`
	Passes     int     `json:"passes"`
	MaxPasses  int     `json:"max_passes"`
	Agreement  float64 `json:"agreement"`
	Samples    int     `json:"samples"`
	Repeats    int     `json:"repeats"`
	TargetNano int64   `json:"target_ns"`
	Resettle   float64 `json:"resettle"`
	SSEAVXMix  bool    `json:"sse_avx_mix,omitempty"`
	// SSEUpper is "zero" where kernels of legacy-SSE instructions start
	// with the upper halves of the vector registers zero (as compiled SSE
	// code runs); empty in files of earlier versions, which ran them with
	// the upper halves in use.
	SSEUpper string `json:"sse_upper,omitempty"`
}

// ShardPlan is the part of a campaign's designs one file holds: shard
// Index of Count (0 ≤ Index < Count), of the designs Design over the
// instructions Insns (as given to portlab measure), Planned experiments
// whose keys have the digest Digest (see PlanDigest). Whole is the digest
// of the whole design's experiments, the same in every shard of one
// campaign: shards of one name over different instructions (a forms file
// edited between shards) differ in it. Files written before Whole was
// recorded leave it empty.
type ShardPlan struct {
	Shard
	Design  string `json:"design"`
	Insns   string `json:"insns"`
	Planned int    `json:"planned"`
	Digest  string `json:"digest"`
	Whole   string `json:"whole,omitempty"`
}

// Same reports whether p and q are the same shard of the same plan; an
// empty Whole (a file written before it was recorded) matches any.
func (p ShardPlan) Same(q ShardPlan) bool {
	if p.Whole == "" || q.Whole == "" {
		p.Whole, q.Whole = "", ""
	}
	return p == q
}

// Shard is the i-th of n parts of a design: Index of Count, 0 ≤ Index <
// Count. It is written "i/n".
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// String returns "i/n".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// ParseShard parses "i/n" (0 ≤ i < n); the error gives the valid range.
func ParseShard(spec string) (Shard, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(spec), "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	switch {
	case !ok || err1 != nil || err2 != nil:
		return Shard{}, fmt.Errorf("shard %q: want i/n, the i-th of n parts (0 ≤ i < n), e.g. 0/4", spec)
	case n < 1:
		return Shard{}, fmt.Errorf("shard %q: the number of parts must be at least 1", spec)
	case i < 0 || i >= n:
		return Shard{}, fmt.Errorf("shard %q: the part must be in 0..%d", spec, n-1)
	}
	return Shard{Index: i, Count: n}, nil
}

// Select returns the shard's part of exps: the distinct experiments
// sorted by key, every Count-th from the Index-th. The parts are disjoint,
// together hold every experiment, differ in size by one at most, and do
// not depend on the order of exps — every node computes the same split.
// Neighbours in key order (the same instruction with different partners)
// go to different parts, so that slow instructions spread over all.
func (s Shard) Select(exps []Experiment) []Experiment {
	byKey := map[string]Experiment{}
	for _, e := range exps {
		byKey[e.Key()] = e
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []Experiment
	for i := s.Index; i < len(keys); i += s.Count {
		out = append(out, byKey[keys[i]])
	}
	return out
}

// PlanDigest returns the digest of a set of experiments (of their sorted
// distinct keys): the shard's plan, checked when shards are merged.
func PlanDigest(exps []Experiment) string {
	keys := make([]string, 0, len(exps))
	for _, e := range exps {
		keys = append(keys, e.Key())
	}
	sort.Strings(keys)
	keys = slices.Compact(keys)
	h := sha256.New()
	for _, k := range keys {
		h.Write([]byte(k))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// MaxTickDrift is how far two fingerprints' cycles per TSC tick may differ
// (relatively) and still be the same machine. The core clock follows load
// and boost: on a shared Zen 5 VM two runs a minute apart calibrated 1.68
// and 1.79 cycles per tick (6 %). Measurements are in core cycles, each
// timing calibrated on its own, so the ratio only tells machines apart
// whose clock set-up differs grossly (another SKU, boost switched off).
const MaxTickDrift = 0.25

// Difference names the first field in which two fingerprints differ
// (by its JSON name) with both values, or returns "" when they are the same
// machine and program: every field equal, CyclesPerTick within
// MaxTickDrift.
func (f Fingerprint) Difference(g Fingerprint) (field, a, b string) {
	if f.CyclesPerTick > 0 && g.CyclesPerTick > 0 {
		if math.Abs(f.CyclesPerTick/g.CyclesPerTick-1) > MaxTickDrift {
			return "cycles_per_tick", fmt.Sprintf("%.4g", f.CyclesPerTick), fmt.Sprintf("%.4g", g.CyclesPerTick)
		}
	}
	f.CyclesPerTick, g.CyclesPerTick = 0, 0
	return jsonDifference(f, g)
}

// Difference names the first setting in which s and t differ (by its JSON
// name) with both values, or returns "".
func (s Settings) Difference(t Settings) (field, a, b string) { return jsonDifference(s, t) }

// jsonDifference compares two values of one struct type field by field,
// as JSON objects, in sorted field order.
func jsonDifference(x, y any) (field, a, b string) {
	var mx, my map[string]json.RawMessage
	bx, _ := json.Marshal(x)
	by, _ := json.Marshal(y)
	if json.Unmarshal(bx, &mx) != nil || json.Unmarshal(by, &my) != nil {
		return "", "", ""
	}
	var keys []string
	for k := range mx {
		keys = append(keys, k)
	}
	for k := range my {
		if _, ok := mx[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		vx, vy := string(mx[k]), string(my[k])
		if vx != vy {
			return k, orNone(vx), orNone(vy)
		}
	}
	return "", "", ""
}

func orNone(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}

// ParseCampaignHeaders parses a campaign file as ParseCampaign does and
// also returns its header lines, in order.
func ParseCampaignHeaders(name string, data []byte) (recs []Record, headers []Header, valid int, err error) {
	recs, headers, _, valid, err = parseCampaign(name, data)
	return
}

// ReadCampaignHeaders returns the records and header lines of a campaign
// file (optionally gzip-compressed), every line of the file in order, the
// later lines of an experiment included. A file of an earlier portlab
// version has no header.
func ReadCampaignHeaders(path string) ([]Record, []Header, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, nil, err
	}
	recs, headers, _, _, err := parseCampaign(path, data)
	return recs, headers, err
}

// CampaignSection is a header line of a campaign file and the records
// that follow it up to the next header line. The records before a file's
// first header (a file of an earlier version has no header) form a
// section without one.
type CampaignSection struct {
	Header  *Header
	Records []Record
}

// ReadCampaignSections returns the sections of a campaign file (optionally
// gzip-compressed) in order: a resumed campaign has a section per run, a
// partial merge of shards (see measure.MergeCampaigns) one per shard.
func ReadCampaignSections(path string) ([]CampaignSection, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	recs, headers, at, _, err := parseCampaign(path, data)
	if err != nil {
		return nil, err
	}
	var secs []CampaignSection
	if len(headers) == 0 || at[0] > 0 {
		end := len(recs)
		if len(at) > 0 {
			end = at[0]
		}
		secs = append(secs, CampaignSection{Records: recs[:end:end]})
	}
	for i := range headers {
		end := len(recs)
		if i+1 < len(at) {
			end = at[i+1]
		}
		secs = append(secs, CampaignSection{Header: &headers[i], Records: recs[at[i]:end:end]})
	}
	return secs, nil
}

// headerLine is a header's line in a campaign file.
type headerLine struct {
	Header *Header `json:"header"`
}

// MarshalLine returns the header as one line of a campaign file, with its
// newline.
func (h Header) MarshalLine() ([]byte, error) {
	b, err := json.Marshal(headerLine{&h})
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// String describes the header in one line: the machine, the settings
// that most often differ, and the shard.
func (h Header) String() string {
	m := h.Machine
	micro := m.Microcode
	if micro == "" {
		micro = "not shown"
	}
	s := fmt.Sprintf("%s %s (family %d, model %d, stepping %d, microcode %s), %.2f core cycles per TSC tick, portlab %s; layout %s, %d–%d passes",
		m.Vendor, m.ModelName, m.Family, m.Model, m.Stepping, micro, m.CyclesPerTick, m.Version, h.Settings.Layout, h.Settings.Passes, h.Settings.MaxPasses)
	if p := h.Shard; p != nil {
		s += fmt.Sprintf("; shard %s of %s over %s, %d experiments", p.Shard, p.Design, p.Insns, p.Planned)
	}
	return s
}
