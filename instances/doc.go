// Package instances holds what the scenario formats of mrbound share; each
// format lives in its own sub-package (jlassi, mrcp, coshh, tumm) with its
// loader, validator and generator.
package instances
