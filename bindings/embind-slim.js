// Emscripten JS library, linked after Embind's (CMakeLists.txt): Embind's C++
// runtime registers std::string, std::wstring, emscripten::val and the typed
// memory views in every module, and their JavaScript halves (with the UTF-8,
// UTF-16 and UTF-32 codecs they need) were a sizeable part of the package's
// gzipped size. No binding here takes or returns those types (bindings.cpp:
// integers and void only), so their registrations do nothing. A binding that
// used one would fail when called, with Embind's UnboundTypeError naming the
// type; tests/js/embind.test.ts calls every registered function.
mergeInto(LibraryManager.library, {
  _embind_register_std_string: function(rawType, name) {},
  _embind_register_std_wstring: function(rawType, charSize, name) {},
  _embind_register_emval: function(rawType, name) {},
  _embind_register_memory_view: function(rawType, dataTypeIndex, name) {},
});
