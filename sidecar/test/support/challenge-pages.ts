import { send, type Handler } from "../../../test-support/origin.ts";

/**
 * Bot checks and block pages as their makers serve them (status, headers, markup, trimmed of
 * styles and tokens), each of which the blocked-page detector must recognise. The sites' names are
 * placeholders: the detector knows mechanisms, never sites.
 */
export interface ChallengePage {
  name: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

const html = "text/html; charset=UTF-8";

export const CHALLENGE_PAGES: readonly ChallengePage[] = [
  {
    name: "Cloudflare managed challenge (cf-mitigated)",
    status: 403,
    headers: { "content-type": html, "cf-mitigated": "challenge", server: "cloudflare", "cf-ray": "8f1c2a3b4c5d6e7f-FRA" },
    body: `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title><meta http-equiv="Content-Type" content="text/html; charset=UTF-8"><meta name="robots" content="noindex,nofollow"><meta name="viewport" content="width=device-width,initial-scale=1"><style>*{box-sizing:border-box;margin:0;padding:0}</style><meta http-equiv="refresh" content="390"></head><body class="no-js"><div class="main-wrapper" role="main"><div class="main-content"><noscript><div id="challenge-error-title"><div class="h2"><span id="challenge-error-text">Enable JavaScript and cookies to continue</span></div></div></noscript></div></div><script>(function(){window._cf_chl_opt={cvId: '3',cZone: "example.test",cType: 'managed',cRay: '8f1c2a3b4c5d6e7f',cH: 'x',cUPMDTk: "/?__cf_chl_tk=x",cFPWv: 'b',cITimeS: '1733000000'};var cpo = document.createElement('script');cpo.src = '/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=8f1c2a3b4c5d6e7f';window._cf_chl_opt.cOgUHash = location.hash === '' && location.href.indexOf('#') !== -1 ? '#' : location.hash;document.getElementsByTagName('head')[0].appendChild(cpo);}());</script></body></html>`,
  },
  {
    name: "Cloudflare JavaScript challenge without the header (503)",
    status: 503,
    headers: { "content-type": html, server: "cloudflare" },
    body: `<!DOCTYPE HTML><html lang="en-US"><head><meta charset="UTF-8" /><title>Just a moment...</title><meta name="robots" content="noindex, nofollow" /></head><body><table width="100%" height="100%" cellpadding="20"><tr><td align="center" valign="middle"><div class="cf-browser-verification cf-im-under-attack"><noscript><h1 data-translate="turn_on_js" style="color:#bd2426;">Please turn JavaScript on and reload the page.</h1></noscript><div id="cf-content"><h1>Checking your browser before accessing example.test.</h1><p>This process is automatic. Your browser will redirect to your requested content shortly.</p><p>Please allow up to 5 seconds&hellip;</p></div></div><script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script></td></tr></table></body></html>`,
  },
  {
    name: "Cloudflare block page (Sorry, you have been blocked)",
    status: 403,
    headers: { "content-type": html, server: "cloudflare", "cf-ray": "8f1c2a3b4c5d6e80-AMS" },
    body: `<!DOCTYPE html><html lang="en-US"><head><title>Attention Required! | Cloudflare</title><meta charset="UTF-8" /></head><body><div id="cf-wrapper"><div id="cf-error-details" class="cf-error-details-wrapper"><div class="cf-wrapper cf-header cf-error-overview"><h1 data-translate="block_headline">Sorry, you have been blocked</h1><h2 class="cf-subheadline"><span data-translate="unable_to_access">You are unable to access</span> example.test</h2></div><div class="cf-section cf-wrapper"><div class="cf-columns two"><div class="cf-column"><h2 data-translate="blocked_why_headline">Why have I been blocked?</h2><p data-translate="blocked_why_detail">This website is using a security service to protect itself from online attacks. The action you just performed triggered the security solution. There are several actions that could trigger this block including submitting a certain word or phrase, a SQL command or malformed data.</p></div><div class="cf-column"><h2 data-translate="blocked_resolve_headline">What can I do to resolve this?</h2><p data-translate="blocked_resolve_detail">You can email the site owner to let them know you were blocked. Please include what you were doing when this page came up and the Cloudflare Ray ID found at the bottom of this page.</p></div></div></div><div class="cf-error-footer cf-wrapper"><p><span>Cloudflare Ray ID: <strong>8f1c2a3b4c5d6e80</strong></span> &bull; <span>Performance &amp; security by Cloudflare</span></p></div></div></div></body></html>`,
  },
  {
    name: "Turnstile-only page (200)",
    status: 200,
    headers: { "content-type": html },
    body: `<!doctype html><html><head><title>Security check</title><script src="https://challenges.cloudflare.com/turnstile/v0/api.js" async defer></script></head><body><main><h1>Verify you are human</h1><p>Complete the check below to continue to the site.</p><form method="post" action="/verify"><div class="cf-turnstile" data-sitekey="0x4AAAAAAAA" data-callback="done"></div><button type="submit">Continue</button></form></main></body></html>`,
  },
  {
    name: "hCaptcha-only page (403)",
    status: 403,
    headers: { "content-type": html },
    body: `<!doctype html><html><head><title>example.test</title><script src="https://js.hcaptcha.com/1/api.js" async defer></script></head><body><div class="wrap"><p>Please complete the security check to access example.test.</p><form action="/challenge" method="POST"><div class="h-captcha" data-sitekey="10000000-ffff-ffff-ffff-000000000001"></div><input type="submit" value="Submit"></form></div></body></html>`,
  },
  {
    name: "reCAPTCHA 'unusual traffic' page (429)",
    status: 429,
    headers: { "content-type": html, "retry-after": "3600" },
    body: `<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"><meta name="viewport" content="initial-scale=1"><title>https://example.test/search?q=x</title></head><body style="font-family: arial, sans-serif; background-color: #fff; color: #000; padding:20px; font-size:18px;"><div style="max-width:400px;"><hr noshade size="1" style="color:#ccc; background-color:#ccc;"><br><form id="captcha-form" action="index" method="post"><script src="https://www.google.com/recaptcha/api.js" async defer></script><div id="recaptcha" class="g-recaptcha" data-sitekey="6LfwuyUTAAAAAOAmoS0fdqijC2PbbdH4kjq62Y1b" data-callback="submitCallback"></div><input type='hidden' name='q' value='EgQ'><input type="hidden" name="continue" value="https://example.test/search?q=x"></form><hr noshade size="1" style="color:#ccc; background-color:#ccc;"><div style="font-size:13px;"><b>About this page</b><br><br>Our systems have detected unusual traffic from your computer network. This page checks to see if it's really you sending the requests, and not a robot.<br><br>IP address: 192.0.2.1<br>Time: 2025-01-01T00:00:00Z<br>URL: https://example.test/search?q=x<br></div></div></body></html>`,
  },
  {
    name: "DataDome captcha (403, x-datadome)",
    status: 403,
    headers: { "content-type": html, "x-datadome": "protected", "x-dd-b": "1" },
    body: `<html lang="en"><head><title>example.test</title><style>#cmsg{animation: A 1.5s;}@keyframes A{0%{opacity:0;}99%{opacity:0;}100%{opacity:1;}}</style></head><body style="margin:0"><p id="cmsg">Please enable JS and disable any ad blocker</p><script data-cfasync="false">var dd={'rt':'c','cid':'AHrlqAAAAAMAx','hsh':'A55FBF4311ED6F1BF9911EB71931D5','t':'fe','s':17434,'e':'x','host':'geo.captcha-delivery.com'}</script><script data-cfasync="false" src="https://ct.captcha-delivery.com/c.js"></script></body></html>`,
  },
  {
    name: "HUMAN (PerimeterX) press-and-hold (403)",
    status: 403,
    headers: { "content-type": html },
    body: `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Access to this page has been denied</title></head><body><div class="container"><h1>Before we continue...</h1><p>Press &amp; Hold to confirm you are a human (and not a bot).</p><div id="px-captcha"></div><p>Reference ID 5f2c8e1a-0000-11ef-9a2b-000000000000</p></div><script>window._pxAppId = 'PXabc12345';window._pxJsClientSrc = '/abc12345/init.js';window._pxFirstPartyEnabled = true;</script><script src="/abc12345/captcha/captcha.js?a=c&u=x&v=&m=0"></script></body></html>`,
  },
  {
    name: "Imperva incident page (200)",
    status: 200,
    headers: { "content-type": "text/html", "x-iinfo": "10-1234567-0 0NNN RT(1700000000000 0) q(0 -1 -1 -1) r(0 -1)", "x-cdn": "Imperva" },
    body: `<html style="height:100%"><head><META NAME="ROBOTS" CONTENT="NOINDEX, NOFOLLOW"><meta name="format-detection" content="telephone=no"><meta name="viewport" content="initial-scale=1.0"><meta http-equiv="X-UA-Compatible" content="IE=edge,chrome=1"></head><body style="margin:0px;height:100%"><iframe id="main-iframe" src="/_Incapsula_Resource?CWUDNSAI=9&xinfo=10-1234567-0%200NNN%20RT&incident_id=1234000000000000000-123456789012345678&edet=15&cinfo=01000000&rpinfo=0&mth=GET" frameborder=0 width="100%" height="100%" marginheight="0px" marginwidth="0px">Request unsuccessful. Incapsula incident ID: 1234000000000000000-123456789012345678</iframe></body></html>`,
  },
  {
    name: "Akamai Access Denied (403)",
    status: 403,
    headers: { "content-type": "text/html", server: "AkamaiGHost", "mime-version": "1.0" },
    body: `<HTML><HEAD>\n<TITLE>Access Denied</TITLE>\n</HEAD><BODY>\n<H1>Access Denied</H1>\n \nYou don't have permission to access "http&#58;&#47;&#47;www&#46;example&#46;test&#47;" on this server.<P>\nReference&#32;&#35;18&#46;5c3a1502&#46;1700000000&#46;1a2b3c4d\n<P>https&#58;&#47;&#47;errors&#46;edgesuite&#46;net&#47;18&#46;5c3a1502&#46;1700000000&#46;1a2b3c4d</P>\n</BODY>\n</HTML>\n`,
  },
  {
    name: "AWS WAF challenge (202, x-amzn-waf-action)",
    status: 202,
    headers: { "content-type": html, "x-amzn-waf-action": "challenge" },
    body: `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title></title><script type="text/javascript">window.awsWafCookieDomainList = [];window.gokuProps = {"key":"AQIDAHjcYu","iv":"D549","context":"x"};</script><script src="https://0123456789ab.edge.sdk.awswaf.com/0123456789ab/abcdef/challenge.js"></script></head><body><div id="challenge-container"></div><script type="text/javascript">AwsWafIntegration.saveReferrer();AwsWafIntegration.checkForceRefresh().then((forceRefresh) => { if (forceRefresh) { AwsWafIntegration.forceRefreshToken().then(() => { window.location.reload(true); }); } else { AwsWafIntegration.getToken().then(() => { window.location.reload(true); }); } });</script><noscript><h1>JavaScript is disabled</h1>In order to continue, we need to verify that you're not a robot. This requires JavaScript. Enable JavaScript and then reload the page.</noscript></body></html>`,
  },
  {
    name: "AWS WAF challenge page without the header (202)",
    status: 202,
    headers: { "content-type": html },
    body: `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title></title><script type="text/javascript">window.awsWafCookieDomainList = [];window.gokuProps = {"key":"AQIDAHjcYu","iv":"D549","context":"x"};</script><script src="https://0123456789ab.edge.sdk.awswaf.com/0123456789ab/abcdef/challenge.js"></script></head><body><div id="challenge-container"></div><noscript><h1>JavaScript is disabled</h1>In order to continue, we need to verify that you're not a robot.</noscript></body></html>`,
  },
  {
    name: "Vercel security checkpoint (429, x-vercel-mitigated)",
    status: 429,
    headers: { "content-type": html, "x-vercel-mitigated": "challenge", server: "Vercel" },
    body: `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Vercel Security Checkpoint</title></head><body><main><p>We're verifying your browser</p><noscript>Enable JavaScript to continue</noscript><p>Website owner? Click here to fix</p></main><script src="/.well-known/vercel/security/static/challenge.v2.min.js"></script></body></html>`,
  },
  {
    name: "Kasada block (429, x-kpsdk-ct)",
    status: 429,
    headers: { "content-type": "text/html", "x-kpsdk-ct": "0abcdEFGHijk", "x-kpsdk-r": "1-AAAA" },
    body: `<!DOCTYPE html><html><head></head><body><script>window.KPSDK={};KPSDK.now=typeof performance!=='undefined'&&performance.now?performance.now.bind(performance):Date.now.bind(Date);KPSDK.start=KPSDK.now();</script><script src="/149e9513-01fa-4fb0-aad4-566afd725d1b/2d206a39-8ed7-437e-a3be-862e0f06eea3/ips.js?tkrm_alpekz_s1.3=0EOFA"></script></body></html>`,
  },
  {
    name: "CloudFront 'Request blocked' (403)",
    status: 403,
    headers: { "content-type": "text/html", server: "CloudFront", "x-cache": "Error from cloudfront" },
    body: `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd"><HTML><HEAD><META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=iso-8859-1"><TITLE>ERROR: The request could not be satisfied</TITLE></HEAD><BODY><H1>403 ERROR</H1><H2>The request could not be satisfied.</H2><HR noshade size="1px">Request blocked.\nWe can't connect to the server for this app or website at this time. There might be too much traffic or a configuration error. Try again later, or contact the app or website owner.<BR clear="all">If you provide content to customers through CloudFront, you can find steps to troubleshoot and help prevent this error by reviewing the CloudFront documentation.<BR clear="all"><HR noshade size="1px"><PRE>Generated by cloudfront (CloudFront)\nRequest ID: abcdEFGH1234==\n</PRE><ADDRESS></ADDRESS></BODY></HTML>`,
  },
  {
    name: "Sucuri firewall Access Denied (403)",
    status: 403,
    headers: { "content-type": "text/html", server: "Sucuri/Cloudproxy", "x-sucuri-id": "11005" },
    body: `<!DOCTYPE html><html lang="en"><head><title>Sucuri WebSite Firewall - Access Denied</title></head><body><div id="main-container"><h2>Access Denied - Sucuri Website Firewall</h2><table><tr><td>Your IP:</td><td>192.0.2.1</td></tr><tr><td>URL:</td><td>www.example.test/</td></tr><tr><td>Block reason:</td><td>Access from your Country was disabled by the administrator.</td></tr></table><p>If you are the site owner (or you manage this site), please whitelist your IP or if you think this block is an error please open a support ticket.</p></div></body></html>`,
  },
  {
    name: "plain 'unusual traffic' page (503)",
    status: 503,
    headers: { "content-type": "text/html; charset=utf-8" },
    body: `<!doctype html><html><head><title>Service unavailable</title></head><body><h1>Sorry, we can't serve you right now</h1><p>We have detected unusual traffic from your network and have paused automated requests. If you are a person, try again in a few minutes.</p></body></html>`,
  },
  {
    name: "plain-text refusal of automated access (401 without an authentication challenge)",
    status: 401,
    headers: { "content-type": "text/plain" },
    body: "Access denied: automated access is not allowed.",
  },
];

/** Each page at /challenge/<its index>, with its status and headers, for a loopback origin's routes. */
export const challengeRoutes = (): Record<string, Handler> =>
  Object.fromEntries(CHALLENGE_PAGES.map((page, i) => [`/challenge/${i}`, send(page.status, page.headers["content-type"] ?? "text/html", page.body, page.headers)]));
