package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/portlab/portlab/lib/measure"
)

const campaignUsage = `portlab campaign — work with campaign files

  portlab campaign merge -out FILE.jsonl [-partial] SHARD.jsonl...

merge joins the shard files of a campaign measured in parts (portlab
measure -shard i/n) into one campaign file. Every shard must come from the
same machine (the CPU fingerprint of its header: vendor, family, model,
stepping, microcode, portlab version, core cycles per TSC tick within
25 %: the core clock follows load and boost), the same settings and the same plan; a shard that differs is refused
with its file and the field. Each experiment is kept once with its whole
record (dispersion, contention); a shard given twice is merged once.
Missing shards and shards that do not hold every planned experiment are
listed, and the merge fails (status 1, nothing written) unless -partial
is given. Files of earlier portlab versions, without a header, cannot be
merged (their machine is unknown).

  -out       the merged campaign file (written whole, or not at all)
  -partial   write the merge even when shards or experiments are missing:
             each shard keeps its own header in the file, so that merging
             it later with the missing shards (measured with the same
             -shard i/n) completes the campaign; a shard that was short
             resumes as ever when its own file is measured again
`

func cmdCampaign(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stderr, campaignUsage)
		if len(args) == 0 {
			return fmt.Errorf("campaign needs a subcommand: merge")
		}
		return flag.ErrHelp
	}
	switch args[0] {
	case "merge":
		return cmdCampaignMerge(ctx, args[1:], stdout, stderr)
	}
	return fmt.Errorf("campaign: unknown subcommand %q (want merge; see portlab campaign -h)", args[0])
}

func cmdCampaignMerge(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("campaign merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, campaignUsage) }
	out := fs.String("out", "", "merged campaign file")
	partial := fs.Bool("partial", false, "write an incomplete merge")
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.SetOutput(stderr)
	if err == flag.ErrHelp {
		fs.Usage()
		return err
	}
	if err != nil {
		return fmt.Errorf("%w (see portlab campaign -h)", err)
	}
	if *out == "" || fs.NArg() == 0 {
		return fmt.Errorf("campaign merge needs -out FILE and the shard files (see portlab campaign -h)")
	}
	rep, err := measure.MergeCampaigns(*out, fs.Args(), *partial)
	if err != nil {
		return fmt.Errorf("campaign merge: %s", strings.TrimPrefix(err.Error(), "measure: merge: "))
	}
	fmt.Fprintln(stdout, rep)
	fmt.Fprintf(stdout, "merged into %s\n", *out)
	return nil
}
