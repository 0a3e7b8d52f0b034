// Package display turns Go values into MIME bundles — the text/plain,
// text/html, text/markdown, image/png, image/svg+xml and application/json
// representations that a Jupyter front end chooses from — and lets notebook
// cells show them. Render picks the richest representation of a value: a
// Bundle is shown as it is; a value with an HTML, Markdown, SVG, PNG or JSON
// method (the HTMLer, … interfaces, which interpreted types can implement) is
// shown through it. The package knows no type of the portlab library:
// library values render themselves through those methods, and those best
// shown with a picture (a Mapping with its graph, a Schedule as its
// port-pressure chart, an Evaluation with its heat map) are shown by a
// Viewer that the program running the kernel registers with AddViewer (the
// portlab command registers the views of its plots package); figures with
// PNG and SVG methods returning ([]byte, error), gonum plots and images
// become PNG; anything else is formatted with fmt.
//
// In a cell, Show publishes values while the cell runs, ShowAs and Update
// maintain a display that changes in place (a progress line), Input asks the
// user for a line of text, and Context returns the cell's context, which the
// kernel cancels when the user interrupts: pass it to slow library calls such
// as throughput.Predict. Outside a kernel session these functions write plain
// text to standard output and read standard input, so code that uses them
// also runs as an ordinary program.
package display
