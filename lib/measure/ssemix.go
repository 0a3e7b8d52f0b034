package measure

import (
	"context"
	"fmt"
	"strings"

	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/operands"
	"github.com/portlab/portlab/lib/portmap"
)

// VectorEncoding says how an x86 form encodes its vector operands: not at
// all (NoVectorEncoding), as a legacy SSE instruction (LegacySSE: XMM
// registers without a VEX or EVEX prefix, such as andps or movq xmm, r64),
// or VEX/EVEX-encoded (VEXEncoded: vaddps, vmovups, …).
type VectorEncoding int

const (
	NoVectorEncoding VectorEncoding = iota
	LegacySSE
	VEXEncoded
)

// EncodingOf returns the vector encoding of an x86 form.
func EncodingOf(f isa.Form) VectorEncoding {
	if f.ISA != isa.X86 {
		return NoVectorEncoding
	}
	vector := false
	for _, o := range f.Operands {
		switch o.Class {
		case isa.XMM, isa.YMM, isa.ZMM:
			vector = true
		}
	}
	switch {
	case !vector:
		return NoVectorEncoding
	case strings.HasPrefix(strings.ToLower(f.Mnemonic), "v"):
		return VEXEncoded
	}
	return LegacySSE
}

// mixesEncodings returns a legacy-SSE and a VEX form of forms, if it has
// both.
func mixesEncodings(forms []isa.Form) (sse, vex string, ok bool) {
	for _, f := range forms {
		switch EncodingOf(f) {
		case LegacySSE:
			sse = f.Mnemonic
		case VEXEncoded:
			vex = f.Mnemonic
		}
	}
	return sse, vex, sse != "" && vex != ""
}

// The probe of the SSE/AVX transition penalty: a legacy-SSE and a VEX form
// whose throughputs are well known, alone and together.
const (
	probeSSE = "andps RW:XMM0..15, R:XMM0..15"
	probeVEX = "vaddps W:XMM0..15, R:XMM0..15, R:XMM0..15"
)

// SSEAVXPenalty returns how many times slower than its two forms alone an
// experiment mixing legacy-SSE and VEX forms runs on this host — andps and
// vaddps xmm together against the sum of each alone — measuring it on first
// use. Some cores (and some hypervisors) make every switch between the two
// encodings cost dozens to hundreds of cycles; on an AMD Zen 3 VM the pair
// took about 340 cycles per copy where the forms alone take 0.25 and 0.5.
// Where the ratio is large, Measure refuses experiments that mix the two
// (see AllowSSEAVXMix): their cycles say nothing about ports.
func (h *Hardware) SSEAVXPenalty(ctx context.Context) (float64, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.ssePenalty(ctx)
}

func (h *Hardware) ssePenalty(ctx context.Context) (float64, error) {
	if h.mixPenalty > 0 {
		return h.mixPenalty, nil
	}
	exps := []portmap.Experiment{portmap.NewExperiment(probeSSE), portmap.NewExperiment(probeVEX), portmap.NewExperiment(probeSSE, probeVEX)}
	var kernels []Kernel
	var copies []int
	for _, e := range exps {
		body, n, err := h.body(e, operands.Layout{})
		if err != nil {
			return 0, fmt.Errorf("measure: SSE/AVX probe: %w", err)
		}
		kernels = append(kernels, Kernel{Name: e.String(), Body: body, Init: operands.X86Init()})
		copies = append(copies, n)
	}
	if err := h.Timer.Load(ctx, kernels, h.Vector); err != nil {
		return 0, fmt.Errorf("measure: SSE/AVX probe: %w", err)
	}
	h.loaded = map[string]int{} // the batch is gone: Measure prepares again
	var c [3]float64
	for k := range kernels {
		t, err := h.timeKernel(ctx, k, copies[k])
		if err != nil {
			return 0, fmt.Errorf("measure: SSE/AVX probe: %w", err)
		}
		c[k] = t.Cycles
	}
	if c[0]+c[1] <= 0 {
		return 0, fmt.Errorf("measure: SSE/AVX probe: %v and %v cycles", c[0], c[1])
	}
	h.mixPenalty = c[2] / (c[0] + c[1])
	h.mixProbe = fmt.Sprintf("andps and vaddps xmm together %.3g cycles, alone %.3g and %.3g", c[2], c[0], c[1])
	return h.mixPenalty, nil
}

// mixPenaltyLimit is the SSEAVXPenalty above which mixed experiments are
// refused: a mix of two forms can take at most the sum of their cycles
// when only ports limit it.
const mixPenaltyLimit = 3

// checkMix returns why an experiment of forms cannot be measured on this
// host, or "" if it can.
func (h *Hardware) checkMix(ctx context.Context, forms []isa.Form) (string, error) {
	if h.AllowSSEAVXMix {
		return "", nil
	}
	sse, vex, mixed := mixesEncodings(forms)
	if !mixed {
		return "", nil
	}
	p, err := h.ssePenalty(ctx)
	if err != nil || p <= mixPenaltyLimit {
		return "", err
	}
	return fmt.Sprintf("measure: the experiment mixes legacy-SSE (%s) and VEX-encoded (%s) forms, and on this host every switch between the two costs far more than the ports (%s: %.0f× their sum); its cycles would measure the transitions, not the ports — measure such forms in separate experiments (Hardware.AllowSSEAVXMix measures anyway)",
		sse, vex, h.mixProbe, p), nil
}
