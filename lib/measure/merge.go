package measure

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/portlab/portlab/lib/portmap"
)

// MergeReport is what MergeCampaigns found: the number of shards the
// campaign was split into, the files of each shard (a shard given twice is
// merged once), the shards no file holds, the shards whose files do not
// hold every planned experiment, and what the merged campaign holds.
type MergeReport struct {
	Count      int
	Files      map[int][]string
	Missing    []int
	Incomplete []ShardGap
	// Experiments and Failures count the merged campaign's experiments
	// measured and failed (a failure whose reason is transient counts as
	// not recorded: a rerun of its shard measures it).
	Experiments, Failures int
}

// ShardGap is a shard whose files hold fewer experiments than its plan.
type ShardGap struct {
	Shard             portmap.Shard
	Files             []string
	Planned, Recorded int
}

// Complete reports whether every shard and every planned experiment is
// there.
func (r *MergeReport) Complete() bool { return len(r.Missing) == 0 && len(r.Incomplete) == 0 }

// String describes what is missing, one line each, or says the campaign
// is complete.
func (r *MergeReport) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d shards, %s measured, %d failed", r.Count-len(r.Missing), r.Count,
		portmap.Count(r.Experiments, "experiment"), r.Failures)
	for i, files := range r.Files {
		if len(files) > 1 {
			fmt.Fprintf(&b, "\nshard %s given %d times (%s): merged once", portmap.Shard{Index: i, Count: r.Count}, len(files), strings.Join(files, ", "))
		}
	}
	if len(r.Missing) > 0 {
		var s []string
		for _, i := range r.Missing {
			s = append(s, portmap.Shard{Index: i, Count: r.Count}.String())
		}
		fmt.Fprintf(&b, "\nmissing shards: %s", strings.Join(s, ", "))
	}
	for _, g := range r.Incomplete {
		fmt.Fprintf(&b, "\nshard %s (%s): %d of %d planned experiments recorded, %d missing (running the shard again resumes it)",
			g.Shard, strings.Join(g.Files, ", "), g.Recorded, g.Planned, g.Planned-g.Recorded)
	}
	return b.String()
}

// shardFile is one shard file read for merging.
type shardFile struct {
	path   string
	header portmap.Header
	last   map[string]portmap.Record // the record that counts, by key
	order  []string                  // keys in first-seen order
	cpus   []int
}

// MergeCampaigns merges the shard files of a campaign measured in parts
// (portlab measure -shard i/n) into one campaign file at out. Every file
// must have a header (see portmap.Header) with the same machine
// fingerprint, the same settings and the same plan (number of shards,
// designs and instructions) — a file that differs is refused with an error
// naming it and the field — so that a merged campaign never mixes
// machines or settings. Each experiment is kept once, its record whole
// (dispersion, contention, passes, spread, µop counts): within a file the
// last record counts, as in ReadCampaign; across files a measurement
// beats a failure and, of two measurements, the one with less doubt (the
// larger of spread and contention) is kept — which only happens for a
// shard given twice. A failure whose reason is transient is left out (it
// is not a result).
//
// The report lists shards that no file holds and shards whose files hold
// fewer experiments than planned. Unless partial is set, an incomplete
// campaign is an error and out is not written; the report says what is
// missing. The merged file's header is that of the whole campaign: shard
// 0/1 of the same designs, planned the sum of the shards'. A partial merge
// is written as a section per shard it holds, each under that shard's own
// header (see portmap.ReadCampaignSections): it is a file of those shards,
// and merging it with the missing ones completes the campaign.
func MergeCampaigns(out string, files []string, partial bool) (*MergeReport, error) {
	if len(files) == 0 {
		return nil, fmt.Errorf("measure: merge: no shard files given")
	}
	var shards []*shardFile
	seen := map[string]bool{}
	for _, path := range files {
		abs, _ := filepath.Abs(path)
		if seen[abs] {
			continue // the same file named twice
		}
		seen[abs] = true
		s, err := readShards(path)
		if err != nil {
			return nil, err
		}
		shards = append(shards, s...)
	}
	first := shards[0]
	for _, s := range shards[1:] {
		if f, a, b := first.header.Machine.Difference(s.header.Machine); f != "" {
			return nil, fmt.Errorf("measure: merge: %s was measured on another machine or portlab version than %s: %s is %s there, %s in %s",
				s.path, first.path, f, b, a, first.path)
		}
		if f, a, b := first.header.Settings.Difference(s.header.Settings); f != "" {
			return nil, fmt.Errorf("measure: merge: %s was measured with other settings than %s: %s is %s there, %s in %s",
				s.path, first.path, f, b, a, first.path)
		}
		fp, sp := first.header.Shard, s.header.Shard
		for _, d := range []struct{ field, a, b string }{
			{"shard count", fmt.Sprint(fp.Count), fmt.Sprint(sp.Count)},
			{"design", fp.Design, sp.Design},
			{"insns", fp.Insns, sp.Insns},
		} {
			if d.a != d.b {
				return nil, fmt.Errorf("measure: merge: %s is a shard of another campaign than %s: %s is %s there, %s in %s",
					s.path, first.path, d.field, d.b, d.a, first.path)
			}
		}
		if fp.Whole != "" && sp.Whole != "" && fp.Whole != sp.Whole {
			return nil, fmt.Errorf("measure: merge: %s is a shard of another campaign than %s: its whole design holds other experiments (digest %s there, %s in %s; were the instructions %s changed between shards?)",
				s.path, first.path, sp.Whole, fp.Whole, first.path, fp.Insns)
		}
	}
	n := first.header.Shard.Count
	rep := &MergeReport{Count: n, Files: map[int][]string{}}
	byShard := map[int][]*shardFile{}
	for _, s := range shards {
		i := s.header.Shard.Index
		if len(byShard[i]) > 0 && byShard[i][0].header.Shard.Digest != s.header.Shard.Digest {
			return nil, fmt.Errorf("measure: merge: %s and %s both say they hold shard %s, with different plans (digest %s, %s)",
				byShard[i][0].path, s.path, s.header.Shard.Shard, byShard[i][0].header.Shard.Digest, s.header.Shard.Digest)
		}
		byShard[i] = append(byShard[i], s)
		rep.Files[i] = append(rep.Files[i], s.path)
	}
	// The kept record of each experiment, in shard order.
	kept := map[string]portmap.Record{}
	var order []string
	shardOf := map[string]int{}
	heads := map[int]portmap.Header{}
	planned := 0
	var cpus []int
	for i := 0; i < n; i++ {
		group := byShard[i]
		if len(group) == 0 {
			rep.Missing = append(rep.Missing, i)
			continue
		}
		planned += group[0].header.Shard.Planned
		recorded := map[string]bool{}
		head := group[0].header
		head.CPUs = nil
		for _, s := range group {
			for _, c := range s.cpus {
				if !slices.Contains(cpus, c) {
					cpus = append(cpus, c)
				}
				if !slices.Contains(head.CPUs, c) {
					head.CPUs = append(head.CPUs, c)
				}
			}
			for _, key := range s.order {
				r := s.last[key]
				if r.Error != "" && r.Transient {
					continue
				}
				recorded[key] = true
				old, ok := kept[key]
				if !ok {
					order = append(order, key)
					kept[key] = r
					shardOf[key] = i
				} else if better(r, old) {
					kept[key] = r
				}
			}
		}
		heads[i] = head
		if p := group[0].header.Shard.Planned; len(recorded) < p {
			rep.Incomplete = append(rep.Incomplete, ShardGap{Shard: group[0].header.Shard.Shard, Files: rep.Files[i], Planned: p, Recorded: len(recorded)})
		} else if len(recorded) > p {
			return nil, fmt.Errorf("measure: merge: %s holds %d experiments, more than the %d its shard %s planned: not a file of this campaign's plan",
				strings.Join(rep.Files[i], ", "), len(recorded), p, group[0].header.Shard.Shard)
		}
	}
	var recs []portmap.Record
	var exps []portmap.Experiment
	for _, key := range order {
		r := kept[key]
		recs = append(recs, r)
		exps = append(exps, r.Experiment())
		if r.Error != "" {
			rep.Failures++
		} else {
			rep.Experiments++
		}
	}
	if !rep.Complete() && !partial {
		return rep, fmt.Errorf("measure: merge: the campaign is incomplete, %s not written:\n%s", out, rep)
	}
	if !rep.Complete() {
		// A partial merge keeps each shard under its own header, so that
		// merging it with the missing shards later completes the campaign.
		var secs []portmap.CampaignSection
		for i := 0; i < n; i++ {
			h, ok := heads[i]
			if !ok {
				continue
			}
			sec := portmap.CampaignSection{Header: &h}
			for _, key := range order {
				if shardOf[key] == i {
					sec.Records = append(sec.Records, kept[key])
				}
			}
			secs = append(secs, sec)
		}
		return rep, writeCampaign(out, secs)
	}
	h := first.header
	plan := *h.Shard
	plan.Shard = portmap.Shard{Index: 0, Count: 1}
	plan.Planned = planned
	plan.Digest = portmap.PlanDigest(exps)
	plan.Whole = plan.Digest
	h.Shard, h.CPUs, h.Time = &plan, cpus, time.Now().UTC()
	return rep, writeCampaign(out, []portmap.CampaignSection{{Header: &h, Records: recs}})
}

// better reports whether record r is to be kept rather than old, both of
// one experiment: a measurement beats a failure, a measurement with less
// doubt one with more.
func better(r, old portmap.Record) bool {
	switch {
	case r.Error != "":
		return false
	case old.Error != "":
		return true
	}
	return doubt(r.Measurement()) < doubt(old.Measurement())
}

// readShards reads a shard file: for each shard it holds, its header (one
// plan, the same machine and settings throughout) and the record that
// counts for each experiment. A file measured with -shard holds one shard
// (a header per run: resumes append one); a partial merge holds a section
// per shard merged, each under the shard's own header.
func readShards(path string) ([]*shardFile, error) {
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("measure: merge: shard file %s does not exist", path)
		}
		return nil, fmt.Errorf("measure: merge: %w", err)
	}
	secs, err := portmap.ReadCampaignSections(path)
	if err != nil {
		return nil, err
	}
	if len(secs) == 0 || secs[0].Header == nil {
		return nil, fmt.Errorf("measure: merge: %s has no header: measured by an earlier portlab version, its machine and settings unknown; it cannot be merged safely", path)
	}
	first := secs[0].Header
	byIndex := map[int]*shardFile{}
	var shards []*shardFile
	for _, sec := range secs {
		h := sec.Header
		if h.Shard == nil {
			return nil, fmt.Errorf("measure: merge: %s is not a shard (its header names no shard: measure with -shard i/n)", path)
		}
		if f, a, b := first.Machine.Difference(h.Machine); f != "" {
			return nil, fmt.Errorf("measure: merge: %s mixes machines: %s is %s and %s", path, f, a, b)
		}
		if f, a, b := first.Settings.Difference(h.Settings); f != "" {
			return nil, fmt.Errorf("measure: merge: %s mixes settings: %s is %s and %s", path, f, a, b)
		}
		s := byIndex[h.Shard.Index]
		switch {
		case s == nil:
			s = &shardFile{path: path, header: *h, last: map[string]portmap.Record{}}
			byIndex[h.Shard.Index] = s
			shards = append(shards, s)
		case !h.Shard.Same(*s.header.Shard):
			return nil, fmt.Errorf("measure: merge: %s mixes plans for shard %s (digest %s and %s)", path, h.Shard.Shard, s.header.Shard.Digest, h.Shard.Digest)
		}
		for _, c := range h.CPUs {
			if !slices.Contains(s.cpus, c) {
				s.cpus = append(s.cpus, c)
			}
		}
		for _, r := range sec.Records {
			key := r.Experiment().Key()
			if _, ok := s.last[key]; !ok {
				s.order = append(s.order, key)
			}
			s.last[key] = r
		}
	}
	if len(shards) > 1 {
		for _, s := range shards {
			s.path = fmt.Sprintf("%s (shard %s)", path, s.header.Shard.Shard)
		}
	}
	return shards, nil
}

// writeCampaign writes a campaign file — each section's header, then its
// records — to a temporary file beside path and renames it into place, so
// that path is either the old file or the whole new one.
func writeCampaign(path string, secs []portmap.CampaignSection) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("measure: merge: %w", err)
	}
	defer os.Remove(tmp.Name())
	var buf []byte
	for _, sec := range secs {
		line, err := sec.Header.MarshalLine()
		if err != nil {
			tmp.Close()
			return err
		}
		buf = append(buf, line...)
		for _, r := range sec.Records {
			l, err := r.MarshalLine()
			if err != nil {
				tmp.Close()
				return err
			}
			buf = append(buf, l...)
		}
	}
	if _, err := tmp.Write(buf); err != nil {
		tmp.Close()
		return fmt.Errorf("measure: merge: writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("measure: merge: writing %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
