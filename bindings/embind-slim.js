// Emscripten JS library, linked after Embind's (CMakeLists.txt): Embind's C++
// runtime registers bool, float, double, std::string, std::wstring,
// emscripten::val and the typed memory views in every module, and their
// JavaScript halves (with the codecs they need) were a sizeable part of the
// package's gzipped size. No binding here takes or returns those types
// (bindings.cpp: integers and void only), so their registrations do nothing.
// A binding that used one would fail when called, with Embind's
// UnboundTypeError naming the type; tests/js/embind.test.ts calls every
// registered function. Their dependencies go too (an empty __deps: merging
// a function alone keeps Embind's list, which linked emscripten::val's
// handle table and its debugging hooks).
mergeInto(LibraryManager.library, {
  _embind_register_bool__deps: [],
  _embind_register_bool: function(rawType, name, size, trueValue, falseValue) {},
  _embind_register_float__deps: [],
  _embind_register_float: function(rawType, name, size) {},
  _embind_register_std_string__deps: [],
  _embind_register_std_string: function(rawType, name) {},
  _embind_register_std_wstring__deps: [],
  _embind_register_std_wstring: function(rawType, charSize, name) {},
  _embind_register_emval__deps: [],
  _embind_register_emval: function(rawType, name) {},
  _embind_register_memory_view__deps: [],
  _embind_register_memory_view: function(rawType, dataTypeIndex, name) {},
});
