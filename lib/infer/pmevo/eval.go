package pmevo

import (
	"math"

	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// trainingMAPE is the MAPE in % of m on the experiments of s.
func trainingMAPE(m *portmap.Mapping, s *portmap.ExperimentSet, ipc float64) (float64, error) {
	md := throughput.NewModel(m)
	if ipc > 0 {
		md = md.WithFrontEnd(throughput.FrontEnd{InstructionsPerCycle: ipc})
	}
	var sum float64
	for _, ms := range s.Measurements {
		r, err := md.InvThroughput(ms.Experiment)
		if err != nil {
			return 0, err
		}
		sum += math.Abs(r.Cycles-ms.Cycles) / ms.Cycles
	}
	return 100 * sum / float64(len(s.Measurements)), nil
}
