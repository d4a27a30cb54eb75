// SPDX-License-Identifier: MIT
// Loaded first: every uncaught error, rejected promise, failed resource and console.error call is
// kept in window.arcnavErrors and shown on the page, so a headless test sees them in the DOM.
'use strict';
window.arcnavErrors = [];
(function () {
  function show() {
    const box = document.getElementById('errors');
    if (box !== null) {
      box.hidden = false;
      box.textContent = window.arcnavErrors.join('\n');
    }
    if (typeof window.arcnavPublish === 'function') {
      window.arcnavPublish();
    }
  }
  window.arcnavRecordError = function (text) {
    window.arcnavErrors.push(String(text));
    if (document.readyState === 'loading') {
      document.addEventListener('DOMContentLoaded', show);
    } else {
      show();
    }
  };
  window.addEventListener('error', function (event) {
    if (event.target !== window && event.target && event.target.src) {
      window.arcnavRecordError('could not load ' + event.target.src);
    } else {
      const where = event.filename ? ' (' + event.filename + ':' + event.lineno + ')' : '';
      window.arcnavRecordError('error: ' + event.message + where);
    }
  }, true);
  window.addEventListener('unhandledrejection', function (event) {
    const reason = event.reason;
    window.arcnavRecordError('unhandled rejection: ' + (reason && reason.stack ? reason.stack : reason));
  });
  const consoleError = console.error.bind(console);
  console.error = function (...args) {
    window.arcnavRecordError('console.error: ' + args.map(String).join(' '));
    consoleError(...args);
  };
})();
