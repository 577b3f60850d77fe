// Emscripten JS library, linked after Embind's (CMakeLists.txt): Embind's C++
// runtime registers bool, float, double, std::string, std::wstring,
// emscripten::val and the typed memory views in every module, and their
// JavaScript halves (with the codecs they need) were a sizeable part of the
// package's gzipped size. No binding here takes or returns those types
// (bindings.cpp: integers and void only), so their registrations do nothing.
// A binding that used one would fail when called (its type has no wire
// conversion); tests/js/embind.test.ts calls every registered function. Their dependencies go too (an empty __deps: merging
// a function alone keeps Embind's list, which linked emscripten::val's
// handle table and its debugging hooks).
//
// Every binding is a plain function of integers, none overloaded: each is
// registered by the small invoker below rather than Embind's general one
// (overload tables, unbound-type reporting, destructors, 64-bit dynCalls),
// with the same call: the argument count checked, each argument and the
// result through its registered type's wire conversion.
mergeInto(LibraryManager.library, {
  _embind_register_function__deps: ['$readLatin1String', '$getWasmTableEntry', '$registeredTypes', '$throwBindingError'],
  _embind_register_function: function(name, argCount, rawArgTypesAddr, signature, rawInvoker, fn) {
    name = readLatin1String(name);
    var invoker = getWasmTableEntry(rawInvoker);
    var types = Array.from(HEAP32.subarray(rawArgTypesAddr >> 2, (rawArgTypesAddr >> 2) + argCount));
    Module[name] = function() {
      if (arguments.length !== argCount - 1) {
        throwBindingError('function ' + name + ' called with ' + arguments.length + ' arguments, expected ' + (argCount - 1) + ' args!');
      }
      var args = [fn];
      for (var i = 1; i < argCount; ++i) args.push(registeredTypes[types[i]].toWireType(null, arguments[i - 1]));
      return registeredTypes[types[0]].fromWireType(invoker.apply(null, args));
    };
    Module[name].numArguments = argCount - 1;
  },
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
