package source

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// Experiments is a checked name of an experiment set: a file, a data-set
// name, random:LENGTH:COUNT[:SEED], or a comma-separated list of these
// (see the package documentation). ParseExperiments checks it without
// reading any data; Load reads, measures and merges.
type Experiments struct {
	spec  string
	parts []experimentsPart
}

// experimentsPart is one name of the list.
type experimentsPart struct {
	name string
	// random experiments: their length, count and seed (seeded: given in
	// the name).
	random        bool
	length, count int
	seed          uint64
	seeded        bool
}

// ParseExperiments checks the name of an experiment set, or a
// comma-separated list of them, without reading any data: data-set
// prefixes must be known (pmevo:, random:), random:LENGTH:COUNT[:SEED]
// well-formed, and files must exist. The errors name the name and the
// valid forms.
func ParseExperiments(spec string) (*Experiments, error) {
	e := &Experiments{spec: spec}
	for _, name := range strings.Split(spec, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			if spec == "" {
				return nil, fmt.Errorf("experiments: no name given (%s)", experimentForms)
			}
			return nil, fmt.Errorf("experiments %q: an empty name in the list (%s)", spec, experimentForms)
		}
		p, err := parseExperimentsPart(name)
		if err != nil {
			return nil, err
		}
		e.parts = append(e.parts, p)
	}
	return e, nil
}

func parseExperimentsPart(name string) (experimentsPart, error) {
	p := experimentsPart{name: name}
	switch prefix := prefixOf(name); {
	case prefix == "random":
		length, count, seed, err := design.ParseRandom(name)
		if err != nil {
			return p, fmt.Errorf("experiments %q: want random:LENGTH:COUNT[:SEED], e.g. random:5:1000, with LENGTH, COUNT and SEED positive whole numbers", name)
		}
		p.random, p.length, p.count, p.seed, p.seeded = true, length, count, seed, strings.Count(name, ":") == 3
	case prefix == "pmevo":
		arch, set, ok := strings.Cut(strings.TrimPrefix(name, "pmevo:"), "/")
		if !ok || arch == "" || set == "" {
			return p, fmt.Errorf("experiments %q: want pmevo:ARCH/SET, e.g. pmevo:SKL/eval_small or pmevo:SKL/len_05", name)
		}
	case isFile(name):
	case prefix == "uops.info" || prefix == "portlab":
		return p, fmt.Errorf("experiments %q: %s: names a mapping or a machine, not experiments (%s)", name, prefix+":", experimentForms)
	case prefix != "":
		return p, fmt.Errorf("experiments %q: unknown data-set prefix %q (known: pmevo:ARCH/SET, random:LENGTH:COUNT[:SEED]; or a file)", name, prefix+":")
	default:
		if err := checkFile("experiments", name, experimentForms); err != nil {
			return p, err
		}
	}
	return p, nil
}

// String returns the name as given.
func (e *Experiments) String() string { return e.spec }

// NeedsTruth reports whether the set has random experiments, which Load
// measures with Options.Truth.
func (e *Experiments) NeedsTruth() bool {
	for _, p := range e.parts {
		if p.random {
			return true
		}
	}
	return false
}

// Options are what Load needs beyond the names.
type Options struct {
	// Truth measures random experiment sets, drawn from Instructions.
	Truth        oracle.Oracle
	Instructions []string
	// Seed is the run's random seed: random:LENGTH:COUNT without a seed
	// draws with Seed+1, so that an evaluation set of a run differs from
	// the random design it trained on with Seed (with Seed 0 that is
	// seed 1, the default of design.Build). A seed in the name is taken
	// as it is.
	Seed uint64
	// Notes, when not nil, receives one line for each campaign file with
	// failed experiments (left out of the set).
	Notes io.Writer
}

// Load reads the files and data sets, measures the random sets with
// opts.Truth, and merges the parts in order: an experiment in several
// keeps the value of the last. opts may be nil when there is no random
// set.
func (e *Experiments) Load(ctx context.Context, opts *Options) (*portmap.ExperimentSet, error) {
	if opts == nil {
		opts = &Options{}
	}
	var sets []*portmap.ExperimentSet
	for _, p := range e.parts {
		s, err := p.load(ctx, opts)
		if err != nil {
			return nil, err
		}
		sets = append(sets, s)
	}
	if len(sets) == 1 {
		return sets[0], nil
	}
	return portmap.Merge(sets...), nil
}

func (p experimentsPart) load(ctx context.Context, opts *Options) (*portmap.ExperimentSet, error) {
	switch {
	case p.random:
		if opts.Truth == nil || len(opts.Instructions) == 0 {
			return nil, fmt.Errorf("experiments %q: random experiments need a truth to be measured with (Options.Truth and Instructions)", p.name)
		}
		seed := p.seed
		if !p.seeded {
			seed = opts.Seed + 1
		}
		set, _, err := oracle.MeasureAll(ctx, opts.Truth, design.Random(opts.Instructions, p.length, p.count, seed), nil)
		return set, err
	case portmap.IsCampaign(p.name):
		set, failures, err := portmap.ReadCampaign(p.name)
		if err == nil && len(failures) > 0 && opts.Notes != nil {
			fmt.Fprintf(opts.Notes, "%s: %d failed experiments left out\n", p.name, len(failures))
		}
		return set, err
	}
	return dataset.Experiments(p.name)
}

// LoadExperiments parses and loads an experiment set without random
// parts: ParseExperiments, then Load.
func LoadExperiments(ctx context.Context, spec string) (*portmap.ExperimentSet, error) {
	e, err := ParseExperiments(spec)
	if err != nil {
		return nil, err
	}
	return e.Load(ctx, nil)
}
