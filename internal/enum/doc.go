// Package enum writes once what every enum of mrbound needs: a typed integer
// whose zero value is unknown, named by String and in JSON (MarshalText).
//
// # Use
//
//	type Form int8
//	var formNames = enum.Names[Form]{"unknown", "strong", "published"}
//	func (f Form) String() string               { return formNames.String(f) }
//	func (f Form) MarshalText() ([]byte, error) { return formNames.Text(f) }
//
// Parse finds a value by name for a Parse<Type> function, which writes its
// own error message listing the choices. Values are only appended, so the
// names of existing values never move.
package enum
