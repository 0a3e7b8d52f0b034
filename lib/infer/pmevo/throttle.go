package pmevo

import "time"

// Throttle returns a Config.Progress callback that keeps the history of the
// generations and hands it to redraw on the first generation and then at
// most once per interval — a live chart costs more than a generation of a
// small population. Redraw the complete Result.History once the run
// returns: the last generations may fall between two calls.
func Throttle(interval time.Duration, redraw func(history []Generation)) func(Generation) {
	var history []Generation
	var drawn time.Time
	return func(g Generation) {
		history = append(history, g)
		if drawn.IsZero() || time.Since(drawn) >= interval {
			redraw(history)
			drawn = time.Now()
		}
	}
}
