package measure

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/portmap"
)

// Fingerprint returns what identifies this machine and program for a
// campaign's header (portmap.Fingerprint): the CPU as /proc/cpuinfo
// describes it, and the core cycles per TSC tick, calibrated here on the
// oracle's first CPU with the calibration chain every timing uses (the
// fastest of five timings, as Timer.Measure takes its calibration).
// version is the portlab version that measures.
func (h *Hardware) Fingerprint(ctx context.Context, version string) (portmap.Fingerprint, error) {
	host, err := isa.HostSupport()
	if err != nil {
		return portmap.Fingerprint{}, err
	}
	tpc, err := h.ticksPerCycle(ctx)
	if err != nil {
		return portmap.Fingerprint{}, err
	}
	return portmap.Fingerprint{Vendor: host.Vendor, Family: host.Family, Model: host.Model, Stepping: host.Stepping,
		ModelName: host.ModelName, Microcode: host.Microcode, CyclesPerTick: 1 / tpc, Version: version}, nil
}

// ticksPerCycle times the calibration chain on the first CPU (loading the
// timer's own kernels when nothing is loaded yet) and returns the TSC
// ticks per core cycle of the fastest of five timings.
func (h *Hardware) ticksPerCycle(ctx context.Context) (float64, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	t := h.Timer
	if t.obj == nil {
		if err := h.load(ctx, nil); err != nil {
			return 0, &InfrastructureError{Err: fmt.Errorf("measure: loading the calibration: %w", err)}
		}
	}
	n, err := t.iterations(ctx, calibrationIndex)
	if err != nil {
		return 0, fmt.Errorf("measure: calibration: %w", err)
	}
	best := 0.0
	for range 5 {
		v, err := t.perIteration(ctx, calibrationIndex, n)
		if err != nil {
			return 0, fmt.Errorf("measure: calibration: %w", err)
		}
		if best == 0 || v < best {
			best = v
		}
	}
	return best / calibrationLength, nil
}

// Settings returns the oracle's measurement settings for a campaign's
// header, with the campaign's Resettle (0: DefaultResettle).
func (h *Hardware) Settings(resettle float64) portmap.Settings {
	if resettle == 0 {
		resettle = DefaultResettle
	}
	sseUpper := ""
	if h.Vector != NoVector {
		sseUpper = "zero" // see legacySSEOnly
	}
	var layout []string
	if h.Layout.AsDeclared {
		layout = append(layout, "as-declared")
	}
	if h.Layout.OneLine {
		layout = append(layout, "one-line")
	}
	if h.Layout.WritesRead {
		layout = append(layout, "writes-read")
	}
	if len(layout) == 0 {
		layout = []string{"default"}
	}
	return portmap.Settings{Layout: strings.Join(layout, "+"), BodySize: h.BodySize, Passes: h.Passes, MaxPasses: h.MaxPasses,
		Agreement: h.Agreement, Samples: h.Timer.Samples, Repeats: h.Timer.Repeats, TargetNano: h.Timer.Target.Nanoseconds(),
		Resettle: resettle, SSEAVXMix: h.AllowSSEAVXMix, SSEUpper: sseUpper}
}

// OpenHostCampaign opens (or creates) the campaign file path measured with
// h and begins it with the header of this machine: its fingerprint (with
// the portlab version), h's settings, the CPUs and, for a shard, its plan.
// It refuses, before anything is measured, a file measured on another
// machine, with other settings or for another shard (see Campaign.Begin).
func OpenHostCampaign(ctx context.Context, path string, h *Hardware, version string, plan *portmap.ShardPlan) (*Campaign, error) {
	c, err := OpenCampaign(path, h)
	if err != nil {
		return nil, err
	}
	fp, err := h.Fingerprint(ctx, version)
	if err == nil {
		err = c.Begin(portmap.Header{Machine: fp, Settings: h.Settings(c.Resettle), Shard: plan, CPUs: h.CPUs(), Time: time.Now().UTC()})
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}
