//go:build !race

package yaegifix

const raceDetector = false
