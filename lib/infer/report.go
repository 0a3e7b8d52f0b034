package infer

import "encoding/json"

// marshalReport returns the JSON of r's report with the run's figures.
func marshalReport(r *Result) ([]byte, error) {
	data, err := json.MarshalIndent(struct {
		Method                  string
		Queries, Distinct, Data int
		ElapsedSeconds          float64
		Report                  any
	}{r.Method, r.Queries, r.Distinct, r.Data, r.Elapsed.Seconds(), r.Report}, "", "  ")
	return append(data, '\n'), err
}
