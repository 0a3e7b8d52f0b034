package plots

import (
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
)

// niceTicks places 4 to 8 labelled ticks at multiples of 1, 2, 2.5 or 5 ×
// 10^k, with unlabelled minor ticks between them; with integers set, on
// whole numbers only (for counts such as ports or instructions).
type niceTicks struct{ integers bool }

func (nt niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: trimFloat(lo)}}
	}
	span := hi - lo
	// The step of 1, 2, 2.5 or 5 × 10^k that gives a number of labelled
	// ticks closest to 5.5, preferring 4 to 8.
	step, best := 0.0, math.Inf(1)
	e0 := int(math.Floor(math.Log10(span)))
	for e := e0 - 2; e <= e0+1; e++ {
		for _, m := range []float64{1, 2, 2.5, 5} {
			st := m * math.Pow10(e)
			if nt.integers && (st < 1 || st != math.Round(st)) {
				continue
			}
			n := math.Floor(hi/st+1e-9) - math.Ceil(lo/st-1e-9) + 1
			cost := math.Abs(n - 5.5)
			if n < 4 || n > 8 {
				cost += 10
			}
			if n < 2 {
				cost += 100
			}
			if cost < best {
				step, best = st, cost
			}
		}
	}
	minor := step / 5
	if m := step / math.Pow10(int(math.Floor(math.Log10(step)+1e-9))); math.Abs(m-2) < 1e-9 || math.Abs(m-2.5) < 1e-9 {
		minor = step / 2
	}
	var ticks []plot.Tick
	if m := step / math.Pow10(int(math.Floor(math.Log10(step)+1e-9))); math.Abs(m-2.5) < 1e-9 {
		minor = step / 5
	}
	if nt.integers && minor != math.Round(minor) {
		minor = step
	}
	for i := math.Ceil(lo/minor - 1e-9); i*minor <= hi+1e-9*span; i++ {
		v := i * minor
		if math.Abs(v) < 1e-12*span {
			v = 0
		}
		t := plot.Tick{Value: v}
		if r := v / step; math.Abs(r-math.Round(r)) < 1e-6 {
			t.Label = tickLabel(v, step)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// tickLabel formats v with as many decimals as step needs.
func tickLabel(v, step float64) string {
	dec := 0
	for s := step; dec < 8 && math.Abs(s-math.Round(s)) > 1e-9*math.Max(1, s); s *= 10 {
		dec++
	}
	return strconv.FormatFloat(v, 'f', dec, 64)
}

// decadeTicks labels the powers of ten of a logarithmic axis, with minor
// ticks at 2…9 × 10^k; format writes a label (nil: plain numbers, or
// 1e-6 style outside 0.001 … 10⁵).
type decadeTicks struct{ format func(float64) string }

func (d decadeTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi > lo) {
		return nil
	}
	var ticks []plot.Tick
	k0, k1 := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(hi)))
	for k := k0; k <= k1; k++ {
		p := math.Pow10(k)
		for m := 1; m <= 9; m++ {
			v := float64(m) * p
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 {
				t.Label = d.label(v)
			}
			ticks = append(ticks, t)
		}
	}
	if labelled := countLabels(ticks); labelled < 2 {
		// Less than two decades: label 2 and 5 as well.
		for i := range ticks {
			m := ticks[i].Value / math.Pow10(int(math.Floor(math.Log10(ticks[i].Value)+1e-9)))
			if math.Abs(m-2) < 1e-9 || math.Abs(m-5) < 1e-9 {
				ticks[i].Label = d.label(ticks[i].Value)
			}
		}
	}
	return ticks
}

func (d decadeTicks) label(v float64) string {
	if d.format != nil {
		return d.format(v)
	}
	return plainNumber(v)
}

func countLabels(ts []plot.Tick) int {
	n := 0
	for _, t := range ts {
		if t.Label != "" {
			n++
		}
	}
	return n
}

// plainNumber writes v plainly between 0.001 and 10⁵ and as 1e-6
// otherwise.
func plainNumber(v float64) string {
	if a := math.Abs(v); a >= 1e-3 && a < 1e5 || v == 0 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	s := strconv.FormatFloat(v, 'e', -1, 64) // 1e-06
	mant, exp, _ := strings.Cut(s, "e")
	sign := ""
	if exp[0] == '-' {
		sign = "-"
	}
	exp = strings.TrimLeft(exp[1:], "0")
	return mant + "e" + sign + exp
}

// siSeconds writes a duration in seconds with an SI prefix: "100 ns",
// "1 µs", "2.5 ms".
func siSeconds(v float64) string {
	for _, u := range []struct {
		f    float64
		name string
	}{{1, "s"}, {1e-3, "ms"}, {1e-6, "µs"}, {1e-9, "ns"}} {
		if v >= u.f*(1-1e-9) {
			return trimFloat(v/u.f) + " " + u.name
		}
	}
	return trimFloat(v/1e-12) + " ps"
}
