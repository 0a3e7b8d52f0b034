//go:build race

package yaegifix

// raceDetector is set when the tests run with -race.
const raceDetector = true
