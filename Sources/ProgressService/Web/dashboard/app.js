// The dashboard's entry module.
document.querySelector("main .loading")?.remove();
