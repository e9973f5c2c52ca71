// The in-app browsers of social apps (Facebook, Instagram, LinkedIn, TikTok, …): their web views keep
// service workers and push half-working and lose them between launches, so there the app runs without
// them (spec §7 External identity sign-in).
const IN_APP =
  /FBAN|FBAV|FB_IAB|Instagram|LinkedInApp|TikTok|musical_ly|BytedanceWebview|Snapchat|Line\/|KAKAOTALK|Twitter|Pinterest/i;

export function isInAppBrowser(userAgent: string = navigator.userAgent): boolean {
  return IN_APP.test(userAgent);
}
