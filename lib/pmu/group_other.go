//go:build !linux

package pmu

import "fmt"

// Group is a set of counters; only Linux has them.
type Group struct{}

// Open fails: perf_event_open is Linux only.
func Open(specs ...Spec) (*Group, error) { return nil, fmt.Errorf("pmu: %w", ErrUnsupported) }

// Specs returns nil.
func (g *Group) Specs() []Spec { return nil }

// Start fails.
func (g *Group) Start() error { return fmt.Errorf("pmu: %w", ErrUnsupported) }

// Stop fails.
func (g *Group) Stop() error { return fmt.Errorf("pmu: %w", ErrUnsupported) }

// Read fails.
func (g *Group) Read() ([]float64, error) { return nil, fmt.Errorf("pmu: %w", ErrUnsupported) }

// Close does nothing.
func (g *Group) Close() error { return nil }
