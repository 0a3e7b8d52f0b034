package displaysym

//go:generate go run ../symgen -pkg displaysym github.com/portlab/portlab/kernel/display

import "github.com/traefik/yaegi/interp"

// Symbols maps "importpath/name" to the exported symbols of the display
// package, in the form interp.Interpreter.Use takes. The generated file
// fills it.
var Symbols = interp.Exports{}

// Doc returns the declaration and doc comment of a symbol of the display
// package, keyed by import path and name:
// "github.com/portlab/portlab/kernel/display.Render", a method as
// "….Bundle.With", the package by its import path alone.
func Doc(key string) (string, bool) {
	d, ok := docs[key]
	return d, ok
}
