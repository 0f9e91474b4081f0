// Package gantt draws schedules as Gantt charts, as plain text for terminals and
// as SVG through gonum.org/v1/plot.
//
// # Input
//
// A chart is a list of Bars: a lane (a machine, a slot, a resource), a time
// interval [Start, End) and a label. Lanes are drawn in the order they first
// appear in the list, so callers control the layout by sorting the bars.
//
// # Text
//
// Text draws one line per lane over a time axis of a given width in
// characters. A bar is drawn as "[label---]" when the label fits between its
// brackets and as "[-]" otherwise; the legend below the chart lists every bar
// with its exact interval, so nothing is lost to rounding.
//
// # SVG
//
// SVG draws the same chart with gonum.org/v1/plot without embedded fonts; the
// output depends only on the bars and the title, so it can be compared
// byte for byte in golden tests.
package gantt
