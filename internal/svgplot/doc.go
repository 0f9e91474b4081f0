// Package svgplot writes a gonum plot as an SVG file the way every chart of
// the CLI is written: one background over the whole canvas, and a margin
// right of the plot.
//
// # Why a package
//
// The Gantt charts (package gantt) and compare's charts each drew the
// plot into a canvas narrowed on the right, so that the last x tick label,
// centred on the axis end, is not cut off in a viewer's wider fallback
// font. The Gantt chart painted the whole canvas white first and then the
// plot painted its own background again (two full rectangles in every
// file); compare's charts left the margin unpainted. Write paints the
// canvas once and draws the plot without a background of its own.
package svgplot
