package pmevo

import (
	"fmt"
	"strings"
	"time"

	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/portmap"
)

// String summarises the run in three lines: the problem after congruence
// filtering, the evolution, and the result.
func (r *Result) String() string {
	p := r.Report
	return fmt.Sprintf("%s in %d congruence classes, %d training experiments\n"+
		"%d generations (%s), population %d, seed %d, %s\n"+
		"training MAPE %.3f%% on all forms after the local searches (%.2f%% on the class representatives after evolution), %d distinct µops, volume %d",
		portmap.Count(p.Instructions, "instruction"), p.Representatives, p.Experiments,
		p.Generations, p.Stopped, p.Population, p.Seed, p.Elapsed.Round(time.Millisecond),
		p.TrainingMAPE, p.EvolvedMAPE, p.DistinctUops, p.Volume)
}

// HTML returns the report as a table for a notebook, with the congruence
// classes of more than one member.
func (r *Result) HTML() string {
	p := r.Report
	var h infer.HTML
	h.Table("PMEvo run", nil, func(t *infer.Table) {
		t.Field("forms / congruence classes", fmt.Sprintf("%d / %d", p.Instructions, p.Representatives))
		t.Field("training experiments among representatives", fmt.Sprint(p.Experiments))
		t.Field("population / generations / stopped", fmt.Sprintf("%d / %d / %s", p.Population, p.Generations, p.Stopped))
		t.Field("D_avg after evolution (representatives)", fmt.Sprintf("%.2f %%", p.EvolvedMAPE))
		t.Field("training MAPE after the local searches (all forms)", fmt.Sprintf("%.3f %%", p.TrainingMAPE))
		t.Field("µop volume / distinct µops", fmt.Sprintf("%d / %d", p.Volume, p.DistinctUops))
		t.Field("time", p.Elapsed.Round(100*time.Millisecond).String())
		shown, merged := 0, 0
		for _, c := range r.Classes {
			if len(c.Members) < 2 {
				continue
			}
			merged++
			if shown == 8 {
				continue
			}
			shown++
			members := c.Members
			more := ""
			if len(members) > 6 {
				members, more = members[:6], fmt.Sprintf(" and %d more", len(members)-6)
			}
			t.Field(fmt.Sprintf("class of %d", len(c.Members)), strings.Join(members, ", ")+more)
		}
		if merged > shown {
			t.Field("further classes", fmt.Sprintf("%d more of more than one form", merged-shown))
		}
	})
	return h.String()
}

// WriteFiles writes no files of its own: the report's JSON
// (PREFIX.report.json) is written by infer.Result.WriteFiles.
func (r *Result) WriteFiles(prefix string) ([]string, error) { return nil, nil }
