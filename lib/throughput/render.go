package throughput

import (
	"fmt"
	"html"
	"strings"
)

// String returns r in a line: cycles per execution, the exact port bound,
// the bottleneck ports (by index: a Result does not know the port names),
// what bounds it and the IPC.
func (r Result) String() string {
	return fmt.Sprintf("%.4g cycles (%d µops on the %d bottleneck ports %s; bound: %s), IPC %.3g",
		r.Cycles, r.Num, r.Den, r.Bottleneck, r.Bound, r.IPC())
}

// HTML returns r as a one-row HTML table.
func (r Result) HTML() string {
	return fmt.Sprintf("<table><tr><th>cycles</th><th>port bound</th><th>bottleneck ports</th><th>bound</th><th>instructions</th><th>µops</th><th>IPC</th></tr>"+
		"<tr><td>%.4g</td><td>%d/%d</td><td>%s</td><td>%s</td><td>%d</td><td>%d</td><td>%.3g</td></tr></table>",
		r.Cycles, r.Num, r.Den, html.EscapeString(r.Bottleneck.String()), r.Bound, r.Instructions, r.Uops, r.IPC())
}

// String returns the schedule's cycles and the load of every port.
func (s *Schedule) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cycles %.4g; port pressure:", s.Cycles)
	for k, name := range s.Ports {
		fmt.Fprintf(&b, " %s=%.3g", name, s.Pressure[k])
	}
	return b.String()
}
