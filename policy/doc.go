// Package policy names the online policies: New("fifo") and so on. The
// policies themselves live in subpackages (policy/fifo, policy/fair);
// later policies register here so that `mrbound simulate --policy NAME` and
// comparisons find them by name.
package policy
